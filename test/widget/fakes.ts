/**
 * The widget tests' one support module: snapshots and currencies as the worker sends them, a
 * scripted worker (`fetch`), an EventSource the test drives, the hooks every rendering test
 * needs, and `renderCheckout` (the checkout view against a scripted worker, recording events).
 */
import { cleanup, render } from "@testing-library/preact";
import { h } from "preact";
import { encode } from "uqr";
import { afterEach, beforeAll, beforeEach, vi } from "vitest";
import type {
  CheckoutSnapshot,
  CryptoCurrency,
  DepositSnapshot,
  InvoiceStatus,
  PaymentInstructions,
} from "../../packages/contract/src/http-api.ts";
import { registerAddressCheck } from "../../widget/address-check.ts";
import { createApi } from "../../widget/api.ts";
import { Checkout } from "../../widget/checkout.tsx";
import { type Translator, translator } from "../../widget/i18n/index.ts";
import { registerQrEncoder } from "../../widget/qr.ts";
import { checkAddress } from "../../worker/lib/addresses/address-rules.ts";

export const BASE = "https://pay.example.test";

/** A worker answer with `{ data }`, 200 unless told. */
export const ok = (data: unknown, status = 200) => ({ status, body: { data } });

/** A worker refusal with its status and error code. */
export const refuse = (status: number, code: string) => ({
  status,
  body: { error: { code, message: code } },
});

export function snapshot(over: Partial<CheckoutSnapshot> = {}): CheckoutSnapshot {
  return {
    id: "abcdefghijklmnopqrstuv",
    kind: "invoice",
    invoiceNumber: "1001",
    displayName: "Cedar & Bean",
    description: "Two mugs",
    amount: "49.90",
    currency: "USD",
    fiatDecimalPlaces: 2,
    sandbox: true,
    mode: "in-page",
    orderState: "unpaid",
    amountPaid: "0.00",
    amountDue: "49.90",
    amountOverpaid: "0.00",
    attempt: {
      number: 1,
      orderId: "cc-1001",
      status: "created",
      paymentPageUrl: "https://pay.example.test/pay/inv_1",
      expiresAt: null,
      payment: null,
    },
    canRetry: false,
    final: false,
    refundAddress: null,
    returnUrl: "https://shop.example.test/thanks",
    seq: 1,
    // The worker's clock when it built the snapshot: the widget counts down from it.
    updatedAt: new Date().toISOString(),
    ...over,
  };
}

export function payment(over: Partial<PaymentInstructions> = {}): PaymentInstructions {
  return {
    cryptoCurrencyCode: "USDT_TRC20",
    currencyName: "Tether USD (TRC-20)",
    network: "Tron",
    networkName: "TRON",
    decimalPlaces: 6,
    amount: "49.9",
    received: "0",
    remaining: "49.9",
    address: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
    // Tron has no standard payment URI: no wallet link, the QR code carries the address.
    walletUri: null,
    expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
    refund: { excess: "0", minimum: "6", possible: true },
    ...over,
  };
}

/**
 * A snapshot whose attempt is in `status` with the instructions `payment(over)`; `rest` sets the
 * snapshot's other fields.
 * @example
 * const partial = attempted("partially_paid", { received: "10" }, { orderState: "partially_paid" });
 */
export function attempted(
  status: InvoiceStatus,
  over: Partial<PaymentInstructions> = {},
  rest: Partial<CheckoutSnapshot> = {},
): CheckoutSnapshot {
  return snapshot({ ...rest, attempt: { ...snapshot().attempt, status, payment: payment(over) } });
}

/**
 * The worker route that opens the checkout with `first` (201), for `renderCheckout`'s routes.
 * @example
 * renderCheckout({ ...opening(attempted("overpaid")), [`POST ${path}`]: () => ok(next) });
 */
export const opening = (first: CheckoutSnapshot) => ({
  "POST /v1/checkouts": () => ok(first, 201),
});

/** A top-up as the worker reports it: a Tron USDT deposit address, waiting. */
export function depositSnapshot(over: Partial<DepositSnapshot> = {}): DepositSnapshot {
  return {
    id: "dabcdefghijklmnopqrstuv",
    kind: "deposit",
    topUpId: "topup-7",
    displayName: "Cedar & Bean",
    sandbox: true,
    cryptoCurrencyCode: "USDT_TRC20",
    currencyName: "Tether USD (TRC-20)",
    network: "Tron",
    networkName: "TRON",
    decimalPlaces: 6,
    address: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
    minimumAmount: "1",
    minDepositAmount: "2.5",
    depositCommission: "0.005",
    depositCommissionPercent: "0.5",
    depositNetworkFee: "0.3",
    walletUri: null,
    expiresAt: null,
    status: "created",
    settlement: null,
    final: false,
    seq: 1,
    updatedAt: "2026-11-22T10:00:00.000Z",
    ...over,
  };
}

export const CURRENCIES: CryptoCurrency[] = [
  {
    code: "BTC",
    name: "Bitcoin",
    network: "BTC",
    networkName: "Bitcoin",
    tokenType: null,
    decimalPlaces: 8,
    minDepositAmount: "0.0001",
    minWithdrawalAmount: "0.0005",
    depositCommission: "0.005",
    contractAddress: null,
    imageUrl: null,
    addressMask: "^(bc1|tb1|[13mn2])[a-zA-HJ-NP-Z0-9]{25,62}$",
  },
  {
    code: "USDT_TRC20",
    name: "Tether USD (TRC-20)",
    network: "Tron",
    networkName: "TRON",
    tokenType: "trc20",
    decimalPlaces: 6,
    minDepositAmount: "1",
    minWithdrawalAmount: "5",
    depositCommission: "0.005",
    contractAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    imageUrl: null,
    addressMask: "^T[A-Za-z1-9]{33}$",
  },
  {
    code: "ETH",
    name: "Ethereum",
    network: "Ethereum",
    networkName: "Ethereum",
    tokenType: null,
    decimalPlaces: 18,
    minDepositAmount: "0.001",
    minWithdrawalAmount: "0.005",
    depositCommission: "0.005",
    contractAddress: null,
    imageUrl: null,
    addressMask: "^0x[a-fA-F0-9]{40}$",
  },
];

type Handler = (
  body: unknown,
) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

/** A scripted worker: routes keyed by "METHOD /path"; records calls. */
export function fakeWorker(routes: Record<string, Handler>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? "GET";
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: url.pathname, body });
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler)
      return new Response(JSON.stringify({ error: { code: "not_found", message: "no route" } }), {
        status: 404,
      });
    const out = await handler(body);
    return new Response(JSON.stringify(out.body), {
      status: out.status,
      headers: { "content-type": "application/json" },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

/** An EventSource the test pushes snapshots through. */
export class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly url: string;
  closed = false;
  /** 0 connecting, 1 open, 2 closed (the browser gave up): what `fail(true)` simulates. */
  readyState = 0;
  onerror: (() => void) | null = null;
  onopen: (() => void) | null = null;
  readonly listeners: ((e: MessageEvent<string>) => void)[] = [];
  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void) {
    if (type === "snapshot") this.listeners.push(listener);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  push(s: CheckoutSnapshot) {
    for (const l of this.listeners) l({ data: JSON.stringify(s) } as MessageEvent<string>);
  }
  /** The connection (re)opened, as after each server-side rotation. */
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  /** A stream error; `giveUp` as when the server answered an HTTP error (no reconnect). */
  fail(giveUp = false) {
    if (giveUp) this.readyState = 2;
    this.onerror?.();
  }
}

/**
 * The hooks every rendering test needs: the QR encoder and the address check registered (they
 * are on-demand scripts in production), a fresh fake EventSource per test, and a clean DOM, timers and globals after.
 */
export function useWidgetTestDoubles(): void {
  beforeAll(() => {
    registerQrEncoder(encode);
    registerAddressCheck(checkAddress);
  });
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal("EventSource", FakeEventSource);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

/** An event the widget emitted. */
export interface Emitted {
  name: string;
  detail: unknown;
}

/**
 * Renders the checkout view against a scripted worker (which also lists `currencies`, unless
 * `routes` says otherwise) and records what it emits. `relocalise` re-renders it in another
 * language, keeping its state.
 */
export function renderCheckout(
  routes: Parameters<typeof fakeWorker>[0],
  options: {
    token?: string | null;
    i18n?: Translator;
    currencies?: CryptoCurrency[];
  } = {},
) {
  const currencies = options.currencies ?? CURRENCIES;
  const worker = fakeWorker({ "GET /v1/currencies": () => ok(currencies), ...routes });
  vi.stubGlobal("fetch", worker.fetch);
  const events: Emitted[] = [];
  const token = options.token === undefined ? "token.jwt.value" : options.token;
  const view = (i18n: Translator) =>
    h(Checkout, {
      api: createApi(BASE),
      token,
      i18n,
      emit: (name, detail) => events.push({ name, detail }),
    });
  const { rerender } = render(view(options.i18n ?? translator("en")));
  return { worker, events, relocalise: (i18n: Translator) => rerender(view(i18n)) };
}
