/**
 * @module
 * One HTTP call to the merchant API: Bearer token, JSON in and out, a timeout, and every
 * failure turned into a `MerchantApiError`. The token is sent only in the `Authorization`
 * header and never appears in an error.
 */
import { MerchantApiError } from "./errors.ts";

/** Settings of a `MerchantClient`. */
export interface MerchantClientOptions {
  /** The worker's URL, e.g. `https://checkout.example.com`. */
  baseUrl: string;
  /** The worker's `MERCHANT_API_TOKEN`. */
  token: string;
  /** Per-request timeout (default 15 000 ms). */
  timeoutMs?: number;
  /** A `fetch` to use instead of the global one (tests, proxies, a service binding). */
  fetch?: typeof fetch;
}

/** A request the client makes. */
export interface ApiRequest {
  method: "GET" | "POST";
  /** Path and query, starting with `/v1/`. */
  path: string;
  body?: unknown;
  /** Statuses whose body is `{ data }` and not an error (besides 2xx). */
  dataStatuses?: readonly number[];
}

const retryAfterOf = (response: Response) => {
  const value = Number(response.headers.get("retry-after"));
  return Number.isFinite(value) && value >= 0 ? value : undefined;
};

/**
 * Sends `request` and returns the raw response, or throws `MerchantApiError` for no answer or
 * an error answer.
 *
 * @example
 * const response = await send(options, { method: "GET", path: "/v1/doctor" });
 */
export async function send(options: MerchantClientOptions, request: ApiRequest): Promise<Response> {
  const url = `${options.baseUrl.replace(/\/+$/, "")}${request.path}`;
  const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError") {
      throw new MerchantApiError(0, "timeout", `${request.method} ${request.path} timed out.`);
    }
    throw new MerchantApiError(
      0,
      "network_error",
      `${request.method} ${request.path} failed: ${name || "network error"}.`,
    );
  }
  if (response.ok || request.dataStatuses?.includes(response.status)) return response;
  let body: { error?: { code?: unknown; message?: unknown } } | undefined;
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Not JSON: a proxy's or platform's error page.
  }
  const code = typeof body?.error?.code === "string" ? body.error.code : "invalid_response";
  const message =
    typeof body?.error?.message === "string"
      ? body.error.message
      : `${request.method} ${request.path} answered HTTP ${response.status}.`;
  throw new MerchantApiError(response.status, code, message, retryAfterOf(response));
}

/**
 * Sends `request` and returns the body's `data`.
 *
 * @example
 * const ledger = await sendForData<OrderLedgerView>(options, { method: "GET", path: "/v1/orders/1001" });
 */
export async function sendForData<T>(
  options: MerchantClientOptions,
  request: ApiRequest,
): Promise<T> {
  const response = await send(options, request);
  let body: { data?: T } | undefined;
  try {
    body = (await response.json()) as typeof body;
  } catch {
    body = undefined;
  }
  if (body === undefined || body === null || !("data" in body)) {
    throw new MerchantApiError(
      response.status,
      "invalid_response",
      `${request.method} ${request.path} did not answer { data }.`,
    );
  }
  return body.data as T;
}
