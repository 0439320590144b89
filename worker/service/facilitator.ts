/**
 * @module
 * The service's x402 facilitator and its settlement records: `GET supported`, `POST verify`,
 * `POST settle` (x402 version 2 bodies, bare JSON answers) at the facilitator's URL, and the
 * merchant API's `GET /x402/settlements[/:id]` (`{data}` envelope) at the service's. Every call
 * goes through the same transport as the rest of the client (the API key in
 * `x-tenant-api-key`, the deployment's upstream budget, exact JSON, redacted errors).
 *
 * Retry classes: `verify`, `supported` and the reads are `safe`. `settle` is `never`: a
 * second settle of an authorization whose first answer was lost may be refused as a used nonce
 * although the first moved the money, so an uncertain settle is followed by reading the
 * settlements instead (`order/x402/`).
 *
 * A facilitator may refuse with a 4xx whose body is the protocol's answer (`{isValid: false}`,
 * `{success: false}`, as `@x402/core`'s `HTTPFacilitatorClient` reads it): that is an answer.
 */
import * as z from "zod/mini";
import type { Schema } from "../lib/schema.ts";
import type {
  FacilitatorRequest,
  SettleResponse,
  SupportedResponse,
  VerifyResponse,
} from "../lib/x402/protocol.ts";
import { envelope, orNull } from "./schemas.ts";
import { createTransport, type UpstreamClientOptions } from "./transport.ts";

/** One settlement as the service keeps it (the `x402.payment.*` webhook's `data`). */
export interface X402Settlement {
  id: string;
  status: "submitted" | "confirmed" | "failed";
  /** CAIP-2. */
  network: string;
  /** The token contract. */
  asset: string;
  /** Atomic units, a decimal integer string. */
  amount: string;
  payer: string;
  payTo: string;
  /** The transaction hash; "" until broadcast. */
  transaction: string;
  errorReason: string | null;
  createdAt: string;
  confirmedAt: string | null;
}

/** Filters of `GET /x402/settlements` (the service's; `from`/`to` ISO-8601 on `createdAt`). */
export interface SettlementQuery {
  status?: X402Settlement["status"];
  from?: string;
  to?: string;
  payer?: string;
  payTo?: string;
  transaction?: string;
  page?: number;
  limit?: number;
}

const text = z.string();
const optionalText = z.optional(z.string());
const atomic = z.string().check(z.regex(/^(0|[1-9][0-9]{0,77})$/, "expected atomic units"));
/** A JSON object of anything. */
const anyRecord = z.record(z.string(), z.unknown());

export const settlementSchema: Schema<X402Settlement> = z.object({
  id: text,
  status: z.enum(["submitted", "confirmed", "failed"]),
  network: text,
  asset: text,
  amount: atomic,
  payer: text,
  payTo: text,
  transaction: z._default(text, ""),
  errorReason: orNull(text),
  createdAt: text,
  confirmedAt: orNull(text),
});

const verifySchema: Schema<VerifyResponse> = z.object({
  isValid: z.boolean(),
  invalidReason: optionalText,
  invalidMessage: optionalText,
  payer: optionalText,
});

const settleSchema: Schema<SettleResponse> = z.object({
  success: z.boolean(),
  errorReason: optionalText,
  errorMessage: optionalText,
  payer: optionalText,
  transaction: z._default(text, ""),
  network: z._default(text, ""),
});

const supportedSchema: Schema<SupportedResponse> = z.object({
  kinds: z.array(
    z.object({
      x402Version: z.unknown(),
      scheme: text,
      network: text,
      extra: z.optional(anyRecord),
    }),
  ),
  extensions: z._default(z.array(text), []),
  signers: z._default(z.record(z.string(), z.array(text)), {}),
}) as Schema<SupportedResponse>;

const settlementPage = z.object({
  data: z.array(settlementSchema),
  hasMore: z._default(z.boolean(), false),
});

/** The facilitator client. */
export interface Facilitator {
  supported(): Promise<SupportedResponse>;
  verify(request: FacilitatorRequest): Promise<VerifyResponse>;
  settle(request: FacilitatorRequest): Promise<SettleResponse>;
  getSettlement(id: string): Promise<X402Settlement>;
  /** One page, newest first. */
  listSettlements(query: SettlementQuery): Promise<{ items: X402Settlement[]; hasMore: boolean }>;
}

/**
 * A client of the facilitator at `facilitatorUrl` (its path kept: `<url>/verify`) and of the
 * settlement records at the service's `options.baseUrl`.
 *
 * @example
 * const facilitator = createFacilitator(options, "https://api.example/x402");
 * const answer = await facilitator.verify({ x402Version: 2, paymentPayload, paymentRequirements });
 */
export function createFacilitator(
  options: UpstreamClientOptions,
  facilitatorUrl: string,
): Facilitator {
  const service = createTransport(options);
  const url = new URL(facilitatorUrl);
  const facilitator = createTransport({ ...options, baseUrl: url.origin });
  const at = (op: string) => `${url.pathname.replace(/\/+$/, "")}/${op}`;
  return {
    supported: async () =>
      facilitator({ method: "GET", path: at("supported"), retry: "safe", schema: supportedSchema }),
    verify: async (request) =>
      facilitator({
        method: "POST",
        path: at("verify"),
        body: { ...request },
        retry: "safe",
        schema: verifySchema,
        refusal: verifySchema,
      }),
    settle: async (request) =>
      facilitator({
        method: "POST",
        path: at("settle"),
        body: { ...request },
        retry: "never",
        schema: settleSchema,
        refusal: settleSchema,
      }),
    getSettlement: async (id) =>
      service({
        method: "GET",
        path: `/x402/settlements/${encodeURIComponent(id)}`,
        retry: "safe",
        schema: envelope(settlementSchema),
      }),
    listSettlements: async (query) => {
      const page = await service({
        method: "GET",
        path: "/x402/settlements",
        query: { ...query },
        retry: "safe",
        schema: settlementPage,
      });
      return { items: page.data, hasMore: page.hasMore };
    },
  };
}
