/**
 * @module
 * TEMPORARY: the valibot schema as the worker ran it before zod/mini (differential test only).
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
import * as v from "valibot";
import type {
  SettleResponse,
  SupportedResponse,
  VerifyResponse,
} from "../../../worker/lib/x402/protocol.ts";
import { object, type Schema } from "./schema.ts";

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

const text = v.string();
const optionalText = v.optional(v.string());
const atomic = v.pipe(v.string(), v.regex(/^(0|[1-9][0-9]{0,77})$/, "expected atomic units"));

export const settlementSchema: Schema<X402Settlement> = object({
  id: text,
  status: v.picklist(["submitted", "confirmed", "failed"]),
  network: text,
  asset: text,
  amount: atomic,
  payer: text,
  payTo: text,
  transaction: v.optional(text, ""),
  errorReason: v.nullish(text, null),
  createdAt: text,
  confirmedAt: v.nullish(text, null),
});

export const verifySchema: Schema<VerifyResponse> = object({
  isValid: v.boolean(),
  invalidReason: optionalText,
  invalidMessage: optionalText,
  payer: optionalText,
});

export const settleSchema: Schema<SettleResponse> = object({
  success: v.boolean(),
  errorReason: optionalText,
  errorMessage: optionalText,
  payer: optionalText,
  transaction: v.optional(text, ""),
  network: v.optional(text, ""),
});

export const supportedSchema: Schema<SupportedResponse> = object({
  kinds: v.array(
    object({
      x402Version: v.unknown(),
      scheme: text,
      network: text,
      extra: v.optional(v.record(v.string(), v.unknown())),
    }),
  ),
  extensions: v.optional(v.array(text), []),
  signers: v.optional(v.record(v.string(), v.array(text)), {}),
}) as Schema<SupportedResponse>;

export const settlementPage = object({
  data: v.array(settlementSchema),
  hasMore: v.optional(v.boolean(), false),
});
