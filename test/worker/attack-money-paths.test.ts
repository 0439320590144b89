/**
 * Adversarial regressions on the money paths (issue 10): interleavings the simulation does not
 * draw. Each test names the class it proves; a test marked `it.fails` documents a bug that is
 * still open (its comment says what breaks and why).
 */
import Big from "big.js";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../worker/api/contract.ts";
import { fault, postJson, sandbox, upstreamInvoice } from "./helpers.ts";
import { lockedCheckout } from "./orders.ts";

const LOCK_PATH = "/x-sandbox/invoice/lock-currency";

afterEach(async () => {
  await sandbox("/sandbox/faults", { method: "DELETE" });
});

type Snap = { data: CheckoutSnapshot; error?: { code: string; message: string } };

async function lock(id: string, cryptoCurrencyCode: string) {
  const res = await postJson(`/v1/checkouts/${id}/currency`, { cryptoCurrencyCode });
  return { status: res.status, body: (await res.json()) as Snap };
}

describe("a currency lock whose answer was lost", () => {
  it("going back to the currency the ledger still shows asks the service again: the widget never shows an address the service no longer expects", async () => {
    const { id, orderId } = await lockedCheckout("49.90", "lost");
    // The service switches the invoice to TRX, but its answer never reaches the worker.
    await fault({ path: LOCK_PATH, method: "POST", mode: "drop", times: 1 });
    const lost = await lock(id, "TRX");
    expect(lost.status).toBeGreaterThanOrEqual(500);
    expect((await upstreamInvoice(orderId)).body.data.cryptoCurrencyCode).toBe("TRX");
    // The shopper goes back to USDT: the ledger still says USDT_TRC20 was locked.
    const back = await lock(id, "USDT_TRC20");
    expect(back.status).toBe(200);
    const service = (await upstreamInvoice(orderId)).body.data;
    const shown = back.body.data.attempt.payment!;
    expect(shown.cryptoCurrencyCode).toBe(service.cryptoCurrencyCode);
    expect(shown.address).toBe(service.address);
    expect(new Big(shown.amount).eq(new Big(String(service.cryptoAmountExpected)))).toBe(true);
  });
});
