/**
 * `lockRefusal`: which attempts take no currency lock, and the 409 each gets; an attempt still
 * `created` with nothing received in in-page mode is the only one that may be locked.
 */
import { describe, expect, it } from "vitest";
import type { InvoiceStatus } from "../../packages/contract/src/http-api.ts";
import { lockRefusal } from "../../worker/order/lock-refusal.ts";

const attempt = (status: InvoiceStatus, cryptoReceived = "0") => ({ status, cryptoReceived });

describe("lockRefusal", () => {
  it("lets a created attempt with nothing received be locked in-page", () => {
    expect(lockRefusal(attempt("created"), "in-page")).toBeNull();
  });

  it("refuses every lock in hosted mode with lock_unsupported", () => {
    expect(lockRefusal(attempt("created"), "hosted")).toMatchObject({
      ok: false,
      status: 409,
      code: "lock_unsupported",
    });
  });

  it.each<InvoiceStatus>(["processing", "suspended", "partially_paid", "paid", "expired"])(
    "refuses an attempt already %s with attempt_open, naming the status",
    (status) => {
      const refused = lockRefusal(attempt(status), "in-page");
      expect(refused).toMatchObject({ status: 409, code: "attempt_open" });
      expect(refused && !refused.ok && refused.message).toContain(status.replace("_", " "));
    },
  );

  it("refuses a created attempt that already received money (the currency is fixed)", () => {
    expect(lockRefusal(attempt("created", "0.000001"), "in-page")).toMatchObject({
      status: 409,
      code: "attempt_open",
      message: expect.stringContaining("already been received"),
    });
  });
});
