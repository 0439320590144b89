/**
 * @module
 * `OrderHost`: the narrow face the order's steps (open, lock, retry, reads, refunds) see of
 * their Durable Object. The object (`order-object.ts`) only wires it; every step is a function
 * of this face, so each can be read (and tested) without the object's class.
 *
 * Invariant: a step that awaits the service runs inside the object's lane (the caller enters
 * it once); the steps never enter the lane themselves.
 */

import type { Config } from "../core/config/config.ts";
import type { CoreEnv } from "../core/config/core-env.ts";
import type { Change } from "../core/events/apply-sequence.ts";
import type { Outbox } from "../core/events/outbox-capability.ts";
import type { Logger } from "../lib/log.ts";
import type { OrderJournal } from "./order-journal.ts";
import type { OrderSettings } from "./order-settings.ts";
import type { OrderStore } from "./store.ts";

/** What the order's steps need of their object. */
export interface OrderHost {
  readonly env: CoreEnv;
  readonly store: OrderStore;
  readonly settings: OrderSettings;
  readonly journal: OrderJournal;
  readonly outbox: Pick<Outbox, "has">;
  /** The object's synchronous key-value storage (throttles). */
  readonly kv: SyncKvStorage;
  /** True while an attempt's invoice is being created (a refund asked meanwhile is refused). */
  readonly opening: { active: boolean };
  config(): Config;
  logger(): Logger;
  /** True while someone watches the order live (reads come faster). */
  watched(): boolean;
  /** True once the order's tables exist. */
  hasSchema(): boolean;
  /** Creates the order's tables (idempotent). */
  ensureSchema(): void;
  /** Runs `write` in one SQLite transaction. */
  transaction<T>(write: () => T): T;
  /** Runs a change through the one apply sequence (`core/events/apply-sequence.ts`). */
  applyChange<E>(change: Change<E>, publish: (event: E) => void): Promise<E | null>;
  /** Brings the one alarm forward to the earliest wake any capability reports. */
  arm(): Promise<void>;
}

/**
 * Runs `create` with the order marked as opening an attempt (`OrderHost.opening`).
 *
 * @example
 * await whileOpening(host, () => createFirst(host, input));
 */
export async function whileOpening<T>(host: OrderHost, create: () => Promise<T>): Promise<T> {
  host.opening.active = true;
  try {
    return await create();
  } finally {
    host.opening.active = false;
  }
}
