/**
 * @module
 * The order's x402 payment step (`POST /v1/checkouts/:id/x402`): without a payment, the terms
 * (a 402 with `PAYMENT-REQUIRED`); with one, the facilitator's `verify` then `settle`, once.
 *
 * Invariants:
 * - one settle in flight per order: the order's open payment (settling, submitted, unknown)
 *   refuses another (409 `x402_in_flight`), checked and claimed in one synchronous step (a
 *   Durable Object runs no other request between them), across tabs, retries and isolates;
 * - the same `PAYMENT-SIGNATURE` again is answered as the first time and settles nothing
 *   (the row keeps its digest and its answer); another payload reusing a nonce is refused;
 * - a payload for another order, amount, wallet or network is refused before the facilitator
 *   is asked (`x402-terms.ts`), and changes nothing;
 * - a settle whose outcome is unknown (no answer, 5xx) is never sent again: the order reads
 *   the service's settlements until it knows (`follow-x402.ts`), inside the upstream budget;
 * - runs outside the order's lane: a settle never waits behind reconciliation reads.
 */

import type { ApiErrorCode, CheckoutSnapshot } from "../../../packages/contract/src/http-api.ts";
import { facilitatorFor } from "../../core/config/upstream.ts";
import { x402Settings } from "../../core/config/x402-settings.ts";
import { toChecksumAddress } from "../../lib/address-codecs/eip55.ts";
import { decodeBase64Json } from "../../lib/x402/base64-json.ts";
import type {
  FacilitatorRequest,
  PaymentRequired,
  SettleResponse,
} from "../../lib/x402/protocol.ts";
import { X402_VERSION } from "../../lib/x402/protocol.ts";
import { UpstreamError } from "../../service/errors.ts";
import { GATE_REFUSAL } from "../../service/transport.ts";
import type { OrderHost } from "../order-host.ts";
import { readHold } from "../refunds/hold.ts";
import { readRefunds } from "../refunds/records.ts";
import { orderTotals } from "../snapshot.ts";
import { commitPaymentRow } from "./apply-settlement.ts";
import { type X402PaymentRow, x402Payments } from "./payments-table.ts";
import { routeTransaction } from "./route-transaction.ts";
import { checkPayload, type NotOffered, paymentRequired, x402Terms } from "./x402-terms.ts";

/** What the route answers. */
export type X402Answer =
  /** 402: the terms (no payment sent), or a payment the facilitator refused (`reason`). */
  | {
      kind: "required";
      paymentRequired: PaymentRequired;
      refused?: { reason: string; message: string };
    }
  /** 200: settled (broadcast); `settle` goes in `PAYMENT-RESPONSE`. */
  | { kind: "paid"; snapshot: CheckoutSnapshot; settle: SettleResponse }
  /** 202: the settle's outcome is unknown; the order is finding it out. */
  | { kind: "pending"; snapshot: CheckoutSnapshot }
  /** Any other answer. */
  | {
      kind: "error";
      status: 400 | 404 | 409 | 429 | 503;
      code: ApiErrorCode;
      message: string;
      retryAfter?: number;
      snapshot?: CheckoutSnapshot;
    };

/** What the route passes. */
export interface X402Request {
  /** The `PAYMENT-SIGNATURE` header, or null. */
  header: string | null;
  /** This checkout's x402 URL, as the payer asked it (the 402's `resource.url`). */
  resourceUrl: string;
  /** The payer's client key (`edge/http/client-key.ts`): its calls count in its share. */
  client?: string;
}

/** First settlement read after a settle whose answer was lost. */
const UNKNOWN_FIRST_READ_MS = 2_000;
/** First settlement read after a broadcast (the webhook normally comes first). */
const SUBMITTED_FIRST_READ_MS = 10_000;

const NOT_OFFERED: Record<NotOffered, { code: ApiErrorCode; message: string }> = {
  off: { code: "x402_not_offered", message: "This shop does not take wallet payments (x402)." },
  currency: {
    code: "x402_not_offered",
    message: "Wallet payments (USDC) are offered for USD orders only.",
  },
  paid: { code: "order_paid", message: "This order is already paid." },
  refunded: { code: "order_refunded", message: "This order was refunded; it takes no payment." },
  in_flight: {
    code: "x402_in_flight",
    message: "A wallet payment of this order is being settled; wait for its outcome.",
  },
};

/**
 * Answers one x402 request of the order.
 *
 * @example
 * const answer = await payX402(host, { header: request.headers.get("PAYMENT-SIGNATURE"), resourceUrl });
 */
export async function payX402(host: OrderHost, request: X402Request): Promise<X402Answer> {
  const digest = request.header === null ? null : await sha256Hex(request.header);
  // From here to the claim below, nothing awaits: no other request of this order runs between.
  const order = host.hasSchema() ? host.store.order() : null;
  if (!order)
    return { kind: "error", status: 404, code: "not_found", message: "No such checkout." };
  const config = host.config();
  const settings = x402Settings(config);
  const { store, journal } = host;
  const sql = store.sql;
  const totals = orderTotals(order, store.attempts(), readRefunds(sql), journal.terms());
  const terms = x402Terms(settings, {
    currency: order.currency,
    due: totals.due,
    state: totals.state,
    refundHeld: readHold(sql) !== null,
    latest: x402Payments.latest(sql),
  });
  const purchase = {
    url: request.resourceUrl,
    invoiceNumber: order.invoiceNumber,
    amount: totals.due,
    currency: order.currency,
    shop: config.DISPLAY_NAME,
  };
  const decoded = request.header === null ? null : decodeBase64Json(request.header);
  const nonce = nonceOf(decoded);
  const known = nonce ? x402Payments.byNonce(sql, nonce) : null;
  if (known && digest) return replay(host, known, digest);
  if (!terms.ok) {
    const { code, message } = NOT_OFFERED[terms.why];
    return { kind: "error", status: 409, code, message, snapshot: journal.current() };
  }
  const { requirements } = terms;
  if (request.header === null) {
    const required = paymentRequired(
      requirements,
      purchase,
      "PAYMENT-SIGNATURE header is required",
    );
    return { kind: "required", paymentRequired: required };
  }
  const checked = checkPayload(decoded, requirements, request.resourceUrl, Date.now() / 1000);
  if ("code" in checked) {
    const status = checked.code === "x402_payload_invalid" ? 400 : 409;
    return { kind: "error", status, code: checked.code, message: checked.message };
  }
  const now = new Date().toISOString();
  const claimed: X402PaymentRow = {
    nonce: checked.authorization.nonce.toLowerCase(),
    digest: digest ?? "",
    payer: toChecksumAddress(checked.authorization.from),
    value: requirements.amount,
    fiatAmount: totals.due,
    network: requirements.network,
    asset: requirements.asset,
    payTo: requirements.payTo,
    status: "settling",
    transaction: null,
    settlementId: null,
    errorReason: null,
    applied: false,
    answer: null,
    createdAt: now,
    updatedAt: now,
    confirmedAt: null,
    nextReadAt: 0,
    reads: 0,
  };
  // The claim: no event (nothing happened yet that a watcher must see). An event another step
  // publishes while the claim is held shows it `settling`: see `release`.
  host.transaction(() => x402Payments.save(sql, claimed));
  const claimedAtSeq = journal.lastSeq();
  const facilitator = facilitatorFor(config, {
    priority: "interactive",
    client: request.client,
    deadlineMs: 20_000,
  });
  if (!facilitator) throw new Error("x402 is on: the facilitator exists");
  const body: FacilitatorRequest = {
    x402Version: X402_VERSION,
    paymentPayload: checked.payload,
    paymentRequirements: requirements,
  };
  const refused = (reason: string, message: string) => ({
    kind: "required" as const,
    paymentRequired: paymentRequired(requirements, purchase, reason),
    refused: { reason, message },
  });

  // 1. verify: moves nothing, so any failure releases the claim.
  let verified: Awaited<ReturnType<typeof facilitator.verify>>;
  try {
    verified = await facilitator.verify(body);
  } catch (error) {
    release(host, claimed.nonce, claimedAtSeq);
    return busy(error);
  }
  if (!verified.isValid) {
    const reason = verified.invalidReason ?? "invalid_payment";
    const message = verified.invalidMessage ?? "The facilitator refused this payment.";
    await commitPaymentRow(host, failedRow(claimed, reason, { reason, message }), claimed);
    return refused(reason, message);
  }

  // 2. settle: sent once; an answer lost after sending leaves the outcome unknown.
  let settled: SettleResponse;
  try {
    settled = await facilitator.settle(body);
  } catch (error) {
    if (definitelyNotSent(error)) {
      release(host, claimed.nonce, claimedAtSeq);
      return busy(error);
    }
    const unknown: X402PaymentRow = {
      ...claimed,
      status: "unknown",
      nextReadAt: Date.now() + UNKNOWN_FIRST_READ_MS,
      updatedAt: new Date().toISOString(),
    };
    const { snapshot } = await commitPaymentRow(host, unknown, claimed);
    host.logger().warn("x402.settle_unknown", { error: String(error) });
    return { kind: "pending", snapshot };
  }
  if (!settled.success) {
    const reason = settled.errorReason ?? "settle_failed";
    const message = settled.errorMessage ?? "The payment could not be settled; nothing moved.";
    await commitPaymentRow(host, failedRow(claimed, reason, settled), claimed);
    return refused(reason, message);
  }
  const transaction = settled.transaction || null;
  const submitted: X402PaymentRow = {
    ...claimed,
    status: "submitted",
    transaction,
    answer: JSON.stringify(settled),
    nextReadAt: Date.now() + SUBMITTED_FIRST_READ_MS,
    updatedAt: new Date().toISOString(),
  };
  if (transaction) await routeTransaction(host, transaction, order.checkoutId);
  const { snapshot } = await commitPaymentRow(host, submitted, claimed);
  return { kind: "paid", snapshot, settle: settled };
}

/** The same nonce again: the same header gets the first answer; another payload is refused. */
function replay(host: OrderHost, row: X402PaymentRow, digest: string): X402Answer {
  if (row.digest !== digest) {
    return {
      kind: "error",
      status: 409,
      code: "x402_payload_mismatch",
      message: "This authorization's nonce was already used by another payment; sign again.",
    };
  }
  const snapshot = host.journal.current();
  if (row.status === "settling") {
    return {
      kind: "error",
      status: 409,
      code: "x402_in_flight",
      message: "This payment is being settled; wait for its outcome.",
      retryAfter: 2,
      snapshot,
    };
  }
  const answer = row.answer ? (JSON.parse(row.answer) as Record<string, unknown>) : null;
  if (row.status === "failed" && answer) {
    const reason = String(answer.reason ?? answer.errorReason ?? row.errorReason ?? "failed");
    const message = String(answer.message ?? answer.errorMessage ?? "This payment was refused.");
    return {
      kind: "error",
      status: 409,
      code: "x402_payment_refused",
      message: `${message} (${reason})`,
      snapshot,
    };
  }
  if (answer && row.status !== "unknown") {
    return { kind: "paid", snapshot, settle: answer as unknown as SettleResponse };
  }
  return { kind: "pending", snapshot };
}

/**
 * Forgets a claim that never reached the facilitator's settle (nothing moved). When another
 * step published an event while the claim was held (the order's last event is not the one of
 * the claim), watchers last saw the payment `settling`: an event tells them it is gone and the
 * order payable again, or they would show "settling" until the order's next event.
 */
function release(host: OrderHost, nonce: string, claimedAtSeq: number): void {
  host.transaction(() => x402Payments.remove(host.store.sql, nonce));
  if (host.journal.lastSeq() !== claimedAtSeq)
    host.journal.record(
      "x402.released",
      "a wallet payment did not reach the facilitator: nothing moved",
    );
}

/** The nonce a decoded payload names (lowercase), or null. */
function nonceOf(decoded: unknown): string | null {
  const nonce = (decoded as { payload?: { authorization?: { nonce?: unknown } } } | null)?.payload
    ?.authorization?.nonce;
  return typeof nonce === "string" && /^0x[0-9a-fA-F]{64}$/.test(nonce)
    ? nonce.toLowerCase()
    : null;
}

function failedRow(row: X402PaymentRow, reason: string, answer: unknown): X402PaymentRow {
  return {
    ...row,
    status: "failed",
    errorReason: reason,
    answer: JSON.stringify(answer),
    updatedAt: new Date().toISOString(),
  };
}

/** True when the settle surely never reached the facilitator (the budget's refusal, a 429). */
function definitelyNotSent(error: unknown): boolean {
  return (
    error instanceof UpstreamError &&
    (error.code === GATE_REFUSAL || error.status === 429) &&
    !error.afterUncertain
  );
}

/** 503 `service_busy` (or 429 with the service's hint) for a facilitator that could not answer. */
function busy(error: unknown): X402Answer {
  if (!(error instanceof UpstreamError)) throw error;
  const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 2_000) / 1000));
  return {
    kind: "error",
    status: error.status === 429 ? 429 : 503,
    code: error.status === 429 ? "rate_limited" : "service_busy",
    message: "The payment service is busy; try again in a moment. Nothing was charged.",
    retryAfter: seconds,
  };
}

async function sha256Hex(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
