/**
 * @module
 * `PayoutHost`: the narrow face the payout's steps (quote, commit, the uncertain commit's
 * read-back, withdrawal reads) see of their Durable Object. The object (`payout-object.ts`) only
 * wires it; every step is a function of this face, so each can be read (and tested) without the
 * object's class. The same shape as the order's `OrderHost` (`order/order-host.ts`).
 *
 * Invariant: a step that awaits the service runs inside the object's lane (the caller enters
 * it once); the steps never enter the lane themselves.
 */

import type { Config } from "../core/config/config.ts";
import type { CoreEnv } from "../core/config/core-env.ts";
import type { Change } from "../core/events/apply-sequence.ts";
import type { EventLog } from "../core/events/event-log.ts";
import type { Logger } from "../lib/log.ts";
import type { OrdersBinding } from "../order/order-rpc.ts";
import { type PayoutRow, readPayout } from "./store.ts";

/** What a payout reaches: the core, and the order it reports a refund to. */
export type PayoutEnv = CoreEnv & OrdersBinding;

/** What the payout's steps need of their object. */
export interface PayoutHost {
  readonly env: PayoutEnv;
  readonly sql: SqlStorage;
  /** The payout's event log: the merchant's record of what happened (nobody watches it live). */
  readonly log: EventLog;
  config(): Config;
  logger(): Logger;
  /** True once the payout's tables exist. */
  hasSchema(): boolean;
  /** Creates the payout's tables (idempotent). */
  ensureSchema(): void;
  /** Runs a change through the one apply sequence (`core/events/apply-sequence.ts`). */
  applyChange<E>(change: Change<E>, publish: (event: E) => void): Promise<E | null>;
}

/**
 * The payout's row, or null before its first quote (or before its tables exist).
 *
 * @example
 * const row = payoutRow(host);
 * if (!row) return failure(404, "not_found", "No such payout.");
 */
export function payoutRow(host: PayoutHost): PayoutRow | null {
  return host.hasSchema() ? readPayout(host.sql) : null;
}
