/**
 * @module
 * One HTTP exchange with the service, with per-attempt timeout, retries by policy, exact JSON
 * parsing and schema validation (`lib/schema.ts`). Everything the client does goes through `createTransport`.
 *
 * Invariants:
 * - the request body is serialised once, so every retry sends the identical bytes (same orderId);
 * - URLs are `base origin + absolute path` (the service has no path prefix);
 * - answers are read with `parseExactJson`: no JSON number ever becomes a float;
 * - a 2xx answer that does not match its schema is `invalid_response` naming the field path;
 * - the API key is only ever in the request header; messages and log lines are redacted;
 * - one call (all its attempts, timeouts and waits) ends within `deadlineMs` (default 15 s):
 *   each attempt's timeout is cut to the budget left, and a retry whose wait would not leave at
 *   least `MIN_ATTEMPT_MS` of budget is not made (the last error is thrown instead);
 * - a 429 is retried only after its full `msBeforeNext` / Retry-After; a hint beyond
 *   `MAX_RETRY_AFTER_MS` or the budget left is not waited out: the 429 is thrown with
 *   `retryAfterMs` so the caller can pass its own Retry-After on.
 *
 * - with a `gate` (the deployment's upstream budget, `core/budget/gate.ts`), every attempt first
 *   passes it; a 429 from the service is reported to it (never the gate's own refusal, code
 *   `budget.exhausted`), so the whole deployment slows down, not one caller.
 *
 * Limits are options of the client (`CallLimits`), set where it is built. Defaults suit a
 * widget request: 8 s per attempt, 3 attempts, 15 s in all. A caller that must answer fast
 * (a webhook refetch, where the sender retries anyway) builds its client with
 * `WEBHOOK_REFETCH` (`core/config/upstream.ts`): one attempt of at most 5 s.
 */
import { JsonNumber, parseExactJson } from "../lib/money/exact-json.ts";
import { check, type Schema } from "../lib/schema.ts";
import { redact, UpstreamError } from "./errors.ts";
import {
  isUncertain,
  parseWaitMs,
  type RetryPolicy,
  retryDelayMs,
  shouldRetry,
} from "./retry-policy.ts";
import { errorBodySchema } from "./schemas.ts";

/** How long one call may take and how often it may be tried (see the module header). */
export interface CallLimits {
  /** Per attempt, including reading the body (cut to the budget left). Default 8000. */
  timeoutMs?: number;
  /** Attempts for retryable operations, first included. Default 3. */
  maxAttempts?: number;
  /** Whole call: every attempt and every wait between them. Default 15000. */
  deadlineMs?: number;
}

/** What every attempt passes first: the deployment's upstream budget (`core/budget/gate.ts`). */
export interface UpstreamGate {
  /** Resolves when one call may be sent; throws a 429 `UpstreamError` when not before `deadline`. */
  admit(deadline: number): Promise<void>;
  /** The service answered 429 (its `msBeforeNext`, when it gave one). */
  rateLimited(retryAfterMs: number | undefined): Promise<void>;
}

/** The code of the gate's own refusal (never reported back as the service's 429). */
export const GATE_REFUSAL = "budget.exhausted";

/**
 * The code of the gate's refusal of a client over its fair share of the budget
 * (`core/budget/shares.ts`): never retried (the client asks too much; waiting would only hold
 * its object's lane), never reported as the service's 429.
 */
export const SHARE_REFUSAL = "budget.over_share";

/** Options of the upstream client (and of its transport). */
export interface UpstreamClientOptions extends CallLimits {
  baseUrl: string;
  apiKey: string;
  accountId: string;
  fetch?: typeof fetch;
  /** Waits between attempts; injectable so tests record waits instead of sleeping. */
  sleep?: (ms: number) => Promise<void>;
  /** Structured log sink: one line per attempt. Never receives the API key. */
  log?: (line: Record<string, unknown>) => void;
  /** The deployment's upstream budget; none = calls go straight out (scripts, unit tests). */
  gate?: UpstreamGate;
}

/** One logical call; retries are internal. */
export interface RequestSpec<T> {
  method: "GET" | "POST";
  /** Absolute path at the origin root, e.g. `/invoice`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Serialised once with `JSON.stringify` (amounts as `exactJsonNumber`). */
  body?: Record<string, unknown>;
  retry: RetryPolicy;
  /** Schema of the whole 2xx body; omit for answers without one (204). */
  schema?: Schema<T>;
  /**
   * A 4xx answer (never 429) whose body matches this schema is an answer, not an error: the
   * x402 facilitator refuses a payment with a 400 that carries `{isValid: false, …}`.
   */
  refusal?: Schema<T>;
  /** Set to true when an attempt ended uncertainly (the service may have acted on it). */
  trace?: { uncertain: boolean };
}

/** Sends requests to the service. */
export type Transport = <T>(spec: RequestSpec<T>) => Promise<T>;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A retry is only worth making if at least this much of the call's budget is left for it. */
export const MIN_ATTEMPT_MS = 100;

/**
 * A transport bound to one base URL and API key.
 * @example
 * const send = createTransport({ baseUrl, apiKey, accountId });
 * const accounts = await send({ method: "GET", path: "/accounts", retry: "safe", schema });
 */
export function createTransport(options: UpstreamClientOptions): Transport {
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 8000;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const deadlineMs = options.deadlineMs ?? 15_000;
  const sleep = options.sleep ?? defaultSleep;
  const log = options.log ?? (() => {});
  const secrets = [options.apiKey];

  return async function send<T>(spec: RequestSpec<T>): Promise<T> {
    const url = new URL(spec.path, options.baseUrl);
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const attempts = spec.retry === "never" ? 1 : maxAttempts;
    const where = `${spec.method} ${spec.path}`;
    const deadline = Date.now() + deadlineMs;
    let uncertainBefore = false;

    for (let attempt = 1; ; attempt++) {
      try {
        await options.gate?.admit(deadline);
        const budget = Math.max(1, deadline - Date.now());
        const result = await once(spec, url, body, Math.min(timeoutMs, budget));
        log({ event: "upstream", op: where, attempt, outcome: "ok" });
        return result;
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        if (isUncertain(error) && spec.trace) spec.trace.uncertain = true;
        const fromGate = error.code === GATE_REFUSAL || error.code === SHARE_REFUSAL;
        if (error.status === 429 && !fromGate)
          await options.gate?.rateLimited(error.retryAfterMs).catch(() => {});
        const delay =
          attempt < attempts && error.code !== SHARE_REFUSAL && shouldRetry(spec.retry, error)
            ? retryDelayMs(error, attempt)
            : undefined;
        const retry = delay !== undefined && deadline - Date.now() - delay >= MIN_ATTEMPT_MS;
        const waitMs = retry ? delay : undefined;
        log({
          event: "upstream",
          op: where,
          attempt,
          outcome: retry ? "retry" : "fail",
          kind: error.kind,
          status: error.status,
          code: error.code,
          requestId: error.requestId,
          retryAfterMs: error.retryAfterMs,
          waitMs,
        });
        if (!retry) {
          if (uncertainBefore) error.afterUncertain = true;
          throw error;
        }
        if (isUncertain(error)) uncertainBefore = true;
        await sleep(waitMs ?? 0);
      }
    }
  };

  async function once<T>(
    spec: RequestSpec<T>,
    url: URL,
    body: string | undefined,
    timeoutMs: number,
  ): Promise<T> {
    const where = `${spec.method} ${spec.path}`;
    const controller = new AbortController();
    const timeoutError = () =>
      new UpstreamError("timeout", `${where}: no answer within ${timeoutMs} ms`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Racing against the timer (not only aborting) also bounds a fetch that ignores its signal.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(timeoutError());
        controller.abort();
      }, timeoutMs);
    });
    const headers: Record<string, string> = {
      accept: "application/json",
      "x-tenant-api-key": options.apiKey,
    };
    if (body !== undefined) headers["content-type"] = "application/json";

    const exchange = (async () => {
      let response: Response;
      let text: string;
      try {
        response = await fetchFn(url.toString(), {
          method: spec.method,
          headers,
          body,
          signal: controller.signal,
        });
        text = await response.text();
      } catch (error) {
        if (controller.signal.aborted) throw timeoutError();
        const reason = error instanceof Error ? error.message : String(error);
        throw new UpstreamError("network", `${where}: ${redact(reason, secrets)}`);
      }
      return interpret(spec, response, text);
    })();
    // The losing promise of the race must not surface as an unhandled rejection.
    exchange.catch(() => {});
    timeout.catch(() => {});
    try {
      return await Promise.race([exchange, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  function interpret<T>(spec: RequestSpec<T>, response: Response, text: string): T {
    const where = `${spec.method} ${spec.path}`;
    const requestId =
      // An empty header is as good as none.
      response.headers.get("x-request-id") || response.headers.get("x-correlation-id") || undefined;
    if (!response.ok) {
      const refusal = refusalAnswer(spec, response, text);
      if (refusal.found) return refusal.answer;
      throw httpError(where, response, text, requestId);
    }
    if (!spec.schema) return undefined as T;

    let parsed: unknown;
    try {
      parsed = parseExactJson(text);
    } catch {
      throw new UpstreamError("invalid_response", `${where}: the answer is not JSON`, {
        status: response.status,
        ...(requestId ? { requestId } : {}),
      });
    }
    const result = check(spec.schema, parsed);
    if (result.success) return result.data;
    const issues = result.issues
      .slice(0, 3)
      .map((issue) => `${formatPath(issue.path)}: ${issue.message}`)
      .join("; ");
    throw new UpstreamError(
      "invalid_response",
      redact(`${where}: invalid answer: ${issues}`, secrets),
      {
        status: response.status,
        ...(requestId ? { requestId } : {}),
      },
    );
  }

  /** A 4xx that the spec takes as an answer (`RequestSpec.refusal`), or not found. */
  function refusalAnswer<T>(
    spec: RequestSpec<T>,
    response: Response,
    text: string,
  ): { found: true; answer: T } | { found: false } {
    const { status } = response;
    if (!spec.refusal || status < 400 || status >= 500 || status === 429) return { found: false };
    try {
      const result = check(spec.refusal, parseExactJson(text));
      return result.success ? { found: true, answer: result.data } : { found: false };
    } catch {
      return { found: false };
    }
  }

  function httpError(
    where: string,
    response: Response,
    text: string,
    requestId: string | undefined,
  ): UpstreamError {
    let code: string | undefined;
    let message: string | undefined;
    let retryAfterMs: number | undefined;
    try {
      const body = check(errorBodySchema, parseExactJson(text));
      if (body.success) {
        code = redact(body.data.code, secrets);
        message = body.data.message;
        const hint = body.data.extension?.msBeforeNext;
        if (hint instanceof JsonNumber) retryAfterMs = parseWaitMs(hint.source);
      }
    } catch {
      // Not JSON (a proxy's HTML page, say): status alone describes the failure.
    }
    const retryAfter = response.headers.get("retry-after");
    // Only the delta-seconds form; an HTTP-date Retry-After is ignored (no hint).
    if (retryAfterMs === undefined && retryAfter && /^\d+$/.test(retryAfter)) {
      retryAfterMs = parseWaitMs(retryAfter, "s");
    }
    const detail = [code, message].filter(Boolean).join(": ");
    return new UpstreamError(
      "http",
      redact(`${where}: HTTP ${response.status}${detail ? ` ${detail}` : ""}`, secrets),
      {
        status: response.status,
        ...(code ? { code } : {}),
        ...(requestId ? { requestId: redact(requestId, secrets) } : {}),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      },
    );
  }
}

/** `["data", "items", 0, "cost"]` → `data.items[0].cost` (`(root)` when empty). */
function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
  }
  return out || "(root)";
}
