/**
 * The hand-written ESM declarations (`widget/esm-types.d.ts` → `dist/widget.esm.d.ts`) against the
 * implementation. `expectTypeOf` checks only at compile time: the type assertions below are
 * enforced by `npm run typecheck` (`tsc -p widget/tsconfig.json` includes this file), not by
 * vitest. What vitest can check at run time is checked here too: the values the module exports
 * are exactly the functions the declarations promise, and events carry their detail.
 */
import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it, vi } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { mount } from "../../widget/element.ts";
import type * as Declared from "../../widget/esm-types.d.ts";
import type * as Built from "../../widget/index.ts";

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

  it("declare exactly the functions the ESM module exports (run time)", async () => {
    const declared = [
      ...readFileSync("widget/esm-types.d.ts", "utf8").matchAll(/^export function (\w+)/gm),
    ].map((m) => m[1]);
    const built = await import("../../widget/index.ts");
    expect(Object.keys(built).sort()).toEqual(declared.sort());
    for (const name of declared) expect(typeof built[name as keyof typeof built]).toBe("function");
  });

  it("type the events' detail for listeners on any element, and the widget sends that detail", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("offline");
    });
    const el = document.createElement("div");
    const seen: string[] = [];
    el.addEventListener("checkout:expired", (e) => {
      expectTypeOf(e.detail).toEqualTypeOf<CheckoutSnapshot>();
    });
    el.addEventListener("checkout:error", (e) => {
      expectTypeOf(e.detail.code).toBeString();
      seen.push(e.detail.code);
    });
    const unmount = mount(el, { token: null, api: "https://pay.example.test" });
    await vi.waitFor(() => expect(seen).toEqual(["missing_token"]));
    unmount();
    vi.unstubAllGlobals();
  });
});
