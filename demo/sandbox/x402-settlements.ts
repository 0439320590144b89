/**
 * @module x402-settlements
 * The service's merchant API over x402 settlements: `GET /x402/settlements` (filters `status`,
 * `from`/`to` on `createdAt` inclusive, `payer`, `payTo`, `transaction`; `page`, `limit`;
 * newest first, the sandbox's list shape and its validation errors) and
 * `GET /x402/settlements/:id`.
 */
import { pageOf } from "./list-page.ts";
import type { SandboxState } from "./state.ts";
import { invalidQuery, WireError } from "./wire.ts";
import { X402_STATUSES, type X402Settlement } from "./x402-records.ts";
import { sameAddress } from "./x402-wallets.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** An optional ISO-8601 instant (ms since the epoch); a malformed one is a 400. */
function instant(q: URLSearchParams, name: string): number | null {
  const v = q.get(name);
  if (v === null || v === "") return null;
  const ms = v.length <= 40 && ISO.test(v) ? Date.parse(v) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidQuery(`${name} must be an ISO-8601 date-time`);
  return ms;
}

/** An optional query value of a given shape; a malformed one is a 400. */
function shaped(q: URLSearchParams, name: string, shape: RegExp, what: string): string | null {
  const v = q.get(name);
  if (v === null || v === "") return null;
  if (!shape.test(v)) throw invalidQuery(`${name} must be ${what}`);
  return v;
}

/**
 * One page of settlements matching the query.
 * @example
 * listSettlements(state, new URLSearchParams("status=confirmed&limit=10"));
 */
export function listSettlements(state: SandboxState, q: URLSearchParams): Response {
  const from = instant(q, "from");
  const to = instant(q, "to");
  const payer = shaped(q, "payer", ADDRESS, "a 0x address");
  const payTo = shaped(q, "payTo", ADDRESS, "a 0x address");
  const tx = shaped(q, "transaction", TX_HASH, "a 0x transaction hash (64 hex digits)");
  const matching = [...state.x402.settlements.values()]
    .map((r) => r.settlement)
    .filter((s) => {
      const at = Date.parse(s.createdAt);
      return (
        (from === null || at >= from) &&
        (to === null || at <= to) &&
        (payer === null || sameAddress(s.payer, payer)) &&
        (payTo === null || sameAddress(s.payTo, payTo)) &&
        (tx === null || s.transaction.toLowerCase() === tx.toLowerCase())
      );
    });
  return pageOf(q, X402_STATUSES, matching, (s) => s);
}

/**
 * One settlement by id; 404 `exceptions.x402.settlementNotFound` when unknown.
 * @example
 * findSettlement(state, "x402_…").status; // "confirmed"
 */
export function findSettlement(state: SandboxState, id: string): X402Settlement {
  const rec = id.length <= 64 ? state.x402.settlements.get(id) : undefined;
  if (!rec) {
    throw new WireError(404, "exceptions.x402.settlementNotFound", "No such x402 settlement");
  }
  return rec.settlement;
}
