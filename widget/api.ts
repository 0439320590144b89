/**
 * @module
 * The widget's calls to the worker. Every failure becomes an `ApiFailure` with a code the
 * views can translate (`network` when the worker could not be reached at all); nothing throws
 * past this module unwrapped.
 */
import type { CheckoutSnapshot, CryptoCurrency } from "../packages/contract/src/http-api.ts";

/** A failed call: the worker's error code, or `network`. */
export class ApiFailure extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The calls the checkout makes. */
export interface CheckoutApi {
  /** The worker's origin; on-demand widget assets are served there too. */
  base: string;
  open(token: string): Promise<CheckoutSnapshot>;
  get(id: string): Promise<CheckoutSnapshot>;
  currencies(): Promise<CryptoCurrency[]>;
  lock(id: string, cryptoCurrencyCode: string): Promise<CheckoutSnapshot>;
  retry(id: string): Promise<CheckoutSnapshot>;
  refundAddress(id: string, cryptoCurrencyCode: string, address: string): Promise<CheckoutSnapshot>;
  eventsUrl(id: string): string;
  /**
   * Any other call (`path` under the origin; a body makes it a POST): top-up mode's deposit
   * calls, which live in its chunk (`topup.tsx`), not in widget.js.
   */
  call<T>(path: string, body?: unknown): Promise<T>;
}

/**
 * Creates the API client for a worker origin.
 *
 * @example
 * const api = createApi("https://pay.example.com");
 * const snapshot = await api.open(token);
 */
export function createApi(base: string): CheckoutApi {
  const root = base.replace(/\/+$/, "");
  async function call<T>(path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(root + path, {
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiFailure("network", `${root} unreachable (offline, or no CORS headers)`);
    }
    const json = (await res.json().catch(() => null)) as {
      data?: T;
      error?: { code: string; message: string };
    } | null;
    if (!res.ok || !json || json.data === undefined) {
      throw new ApiFailure(
        json?.error?.code ?? "internal",
        json?.error?.message ?? `HTTP ${res.status}`,
      );
    }
    return json.data;
  }
  const checkout = (id: string) => `/v1/checkouts/${encodeURIComponent(id)}`;
  return {
    base: root,
    open: (token) => call("/v1/checkouts", { token }),
    get: (id) => call(checkout(id)),
    currencies: () => call("/v1/currencies"),
    lock: (id, cryptoCurrencyCode) => call(`${checkout(id)}/currency`, { cryptoCurrencyCode }),
    retry: (id) => call(`${checkout(id)}/retry`, {}),
    refundAddress: (id, cryptoCurrencyCode, address) =>
      call(`${checkout(id)}/refund-address`, { cryptoCurrencyCode, address }),
    eventsUrl: (id) => `${root}${checkout(id)}/events`,
    call,
  };
}
