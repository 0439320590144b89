/**
 * The checkout view's states (`widget/checkout-state.ts`): each step a shopper can be at,
 * derived from the snapshot and what only the browser knows, and the reducer's transitions.
 */
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot, InvoiceStatus } from "../../packages/contract/src/http-api.ts";
import {
  type CheckoutState,
  checkoutReducer,
  initialState,
  isLater,
  showsInstructions,
  stepOf,
} from "../../widget/checkout-state.ts";
import { CURRENCIES, payment, snapshot } from "./fakes.ts";

const attempt = (status: InvoiceStatus, paid = true) => ({
  ...snapshot().attempt,
  status,
  payment: paid ? payment() : null,
});
const at = (s: CheckoutSnapshot, over: Partial<CheckoutState> = {}): CheckoutState => ({
  ...checkoutReducer(initialState("t"), { type: "snapshot", snapshot: s }),
  ...over,
});

describe("steps", () => {
  it("loading, then unavailable on an error before any snapshot; at once without a token", () => {
    expect(stepOf(initialState("t"))).toBe("loading");
    expect(stepOf(initialState(null))).toBe("unavailable");
    expect(initialState(null).error).toBe("missing_token");
    expect(stepOf(checkoutReducer(initialState("t"), { type: "failed", error: "network" }))).toBe(
      "unavailable",
    );
  });

  it("in-page: the picker until a currency is locked (and while changing it), then the instructions", () => {
    expect(stepOf(at(snapshot()))).toBe("picker");
    const locked = at(snapshot({ attempt: attempt("created") }));
    expect(stepOf(locked)).toBe("instructions");
    expect(showsInstructions(locked, "instructions")).toBe(true);
    const changing = checkoutReducer(locked, { type: "choose", choosing: true });
    expect(stepOf(changing)).toBe("picker");
    expect(showsInstructions(changing, "picker")).toBe(false);
    expect(stepOf(at(snapshot({ attempt: attempt("partially_paid") })))).toBe("instructions");
  });

  it("confirming once a payment is detected: no instructions that would invite a second payment", () => {
    for (const status of ["processing", "suspended"] as const) {
      const state = at(snapshot({ attempt: attempt(status) }));
      expect(stepOf(state)).toBe("confirming");
      expect(showsInstructions(state, stepOf(state))).toBe(false);
    }
  });

  it("hosted by the snapshot's mode or after lock_unsupported; the payer's choice shows there too", () => {
    expect(stepOf(at(snapshot({ mode: "hosted" })))).toBe("hosted");
    const refused = checkoutReducer(at(snapshot()), { type: "hosted", hostedOnly: true });
    expect(stepOf(refused)).toBe("hosted");
    const chosen = at(snapshot({ mode: "hosted", attempt: attempt("created") }));
    expect(showsInstructions(chosen, stepOf(chosen))).toBe(true);
    const detected = at(snapshot({ mode: "hosted", attempt: attempt("processing") }));
    expect(showsInstructions(detected, stepOf(detected))).toBe(false);
  });

  it("retry when a new attempt may open; closed when paid, refunded or nothing is left to pay here", () => {
    expect(stepOf(at(snapshot({ canRetry: true, attempt: attempt("expired") })))).toBe("retry");
    expect(stepOf(at(snapshot({ final: true, attempt: attempt("paid" as InvoiceStatus) })))).toBe(
      "closed",
    );
    expect(stepOf(at(snapshot({ orderState: "refunded", attempt: attempt("created") })))).toBe(
      "closed",
    );
    expect(stepOf(at(snapshot({ attempt: attempt("expired") })))).toBe("closed");
  });
});

describe("transitions", () => {
  it("a snapshot clears the error shown and keeps the last announcement unless it brings one", () => {
    const waiting = snapshot();
    const failed = checkoutReducer(at(waiting, { announce: waiting }), {
      type: "failed",
      error: "network",
    });
    expect(failed.error).toBe("network");
    const next = checkoutReducer(failed, { type: "snapshot", snapshot: snapshot({ seq: 2 }) });
    expect(next.error).toBeNull();
    expect(next.announce).toBe(waiting);
    const paid = snapshot({ seq: 3 });
    expect(
      checkoutReducer(next, { type: "snapshot", snapshot: paid, announce: true }).announce,
    ).toBe(paid);
  });

  it("a refused lock rules its currency out only for refusals about the currency", () => {
    const s = at(snapshot());
    const off = checkoutReducer(s, {
      type: "failed",
      error: "currency_unavailable",
      picked: "BTC",
    });
    expect(off.off).toEqual({ BTC: "currency_unavailable" });
    expect(
      checkoutReducer(off, { type: "failed", error: "amount_below_minimum", picked: "ETH" }).off,
    ).toEqual({ BTC: "currency_unavailable", ETH: "amount_below_minimum" });
    expect(checkoutReducer(s, { type: "failed", error: "network", picked: "BTC" }).off).toEqual({});
  });

  it("busy, link, currencies and reopen set what they say, nothing else", () => {
    const s = at(snapshot());
    expect(checkoutReducer(s, { type: "busy", busy: true })).toEqual({ ...s, busy: true });
    expect(checkoutReducer(s, { type: "link", down: true })).toEqual({ ...s, down: true });
    // Up again: "cannot reach" no longer holds; the worker's own refusals still do.
    const unreachable = { ...s, error: "network", down: true };
    expect(checkoutReducer(unreachable, { type: "link", down: false })).toEqual({
      ...s,
      error: null,
      down: false,
    });
    expect(checkoutReducer({ ...s, error: "network" }, { type: "link", down: false })).toEqual(s);
    expect(checkoutReducer({ ...s, error: "network" }, { type: "link", down: true })).toEqual({
      ...s,
      error: "network",
      down: true,
    });
    const refused = { ...s, error: "token_expired", down: true };
    expect(checkoutReducer(refused, { type: "link", down: false })).toEqual({
      ...refused,
      down: false,
    });
    expect(checkoutReducer(s, { type: "currencies", currencies: CURRENCIES })).toEqual({
      ...s,
      currencies: CURRENCIES,
    });
    expect(checkoutReducer(s, { type: "reopen" }).opened).toBe(s.opened + 1);
  });
});

describe("later states (their texts come with payment.js in the script-tag build)", () => {
  it("a fresh attempt with nothing paid is not later, locked or not; anything past it is", () => {
    expect(isLater(snapshot())).toBe(false);
    expect(isLater(snapshot({ attempt: attempt("created") }))).toBe(false);
    for (const status of ["processing", "suspended", "partially_paid", "paid", "expired"] as const)
      expect(isLater(snapshot({ attempt: attempt(status) }))).toBe(true);
    // A second attempt after a partial payment, a paid or refunded order.
    expect(isLater(snapshot({ orderState: "partially_paid", attempt: attempt("created") }))).toBe(
      true,
    );
    expect(isLater(snapshot({ final: true }))).toBe(true);
    expect(isLater(snapshot({ orderState: "refunded" }))).toBe(true);
  });
});
