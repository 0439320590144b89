/**
 * The hand-written ESM declarations (`widget/esm-types.d.ts` → `dist/widget.esm.d.ts`) against the
 * implementation: `tsc -p widget/tsconfig.json` fails here if they drift apart.
 */
import { describe, expectTypeOf, it } from "vitest";
import type * as Declared from "../../widget/esm-types.d.ts";
import type * as Built from "../../widget/index.ts";
import type { CheckoutSnapshot } from "../../worker/api/contract.ts";

describe("ESM type declarations", () => {
  it("match the implementation's exports", () => {
    expectTypeOf<typeof Built.mount>().toEqualTypeOf<typeof Declared.mount>();
    expectTypeOf<typeof Built.defineCheckoutElement>().toEqualTypeOf<
      typeof Declared.defineCheckoutElement
    >();
    expectTypeOf<Built.MountOptions>().toEqualTypeOf<Declared.MountOptions>();
    expectTypeOf<Built.CheckoutEventMap>().toEqualTypeOf<Declared.CheckoutEventMap>();
    expectTypeOf<Built.CheckoutErrorDetail>().toEqualTypeOf<Declared.CheckoutErrorDetail>();
  });

  it("type the events' detail for listeners on any element", () => {
    const el = document.createElement("div");
    el.addEventListener("checkout:expired", (e) => {
      expectTypeOf(e.detail).toEqualTypeOf<CheckoutSnapshot>();
    });
    el.addEventListener("checkout:error", (e) => {
      expectTypeOf(e.detail.code).toBeString();
    });
  });
});
