/**
 * @module
 * The order object's settings kept beside its tables, in the object's synchronous key-value
 * storage: one key per fact, each written where this module says and read nowhere else. The
 * key names are stored data: renaming one forgets it in every existing order.
 */
import type { PaymentMode } from "../core/config/mode-decision.ts";
import type { LockFact } from "../core/converge/facts.ts";

/** The terms a checkout token fixes; two tokens for one order must agree on them. */
export interface Claims {
  amount: string;
  currency: string;
}

/** The order's `successUrl` / `failedUrl`, sent with every attempt's invoice. */
export type Redirects = { successUrl?: string; failedUrl?: string };

const KEYS = {
  /** `in-page` / `hosted`, written when the order opens; `hosted` once a lock was unsupported. */
  mode: "payment_mode",
  redirects: "redirect_urls",
  /**
   * The claims of a first create that has not produced an order row yet: written before the
   * upstream call, removed once the order row holds them or the service definitely refused. It
   * stays after an uncertain failure (timeout, 5xx): the service may then hold an invoice under
   * this orderId with exactly these terms.
   */
  claims: "pending_claims",
  /**
   * The invoice id whose last currency lock may have reached the service without its answer
   * being applied (lost, garbled, 5xx, or the object reset mid-call): written before the lock is
   * sent, removed once a lock's answer is applied. While set, the attempt's stored currency
   * does not short-circuit a lock (the service may hold another one now).
   */
  lockUnconfirmed: "lock_unconfirmed",
  /**
   * `{invoiceId, terms, replaced}`: the last confirmed lock's fact (`core/converge/facts.ts`
   * `LockFact`), written once a lock's answer is applied. Reads that would undo it change
   * nothing; it counts only for its invoice and only while no later lock is unconfirmed.
   */
  lockFact: "lock_fact",
  /**
   * `PAYMENT_TOLERANCE_PERCENT` when the order opened: an order's terms never change under it (a
   * paid order told `order.paid` must not turn partially paid, and be paid and told again,
   * because a later deploy lowered the tolerance).
   */
  tolerance: "payment_tolerance_percent",
  /** The fiat's `minInvoiceAmount`, refreshed by every open. */
  fiatMinimum: "fiat_min_invoice_amount",
} as const;

/**
 * Typed access to one order's settings.
 *
 * @example
 * const settings = new OrderSettings(ctx.storage.kv);
 * settings.mode(); // "in-page"
 */
export class OrderSettings {
  readonly #kv: SyncKvStorage;

  constructor(kv: SyncKvStorage) {
    this.#kv = kv;
  }

  /** The order's payment mode; an order stored before modes were kept is hosted. */
  mode(): PaymentMode {
    return this.#kv.get<PaymentMode>(KEYS.mode) ?? "hosted";
  }

  setMode(mode: PaymentMode): void {
    this.#kv.put<PaymentMode>(KEYS.mode, mode);
  }

  redirects(): Redirects | undefined {
    return this.#kv.get<Redirects>(KEYS.redirects);
  }

  setRedirects(input: { successUrl?: string | null; failedUrl?: string | null }): void {
    this.#kv.put<Redirects>(KEYS.redirects, {
      ...(input.successUrl ? { successUrl: input.successUrl } : {}),
      ...(input.failedUrl ? { failedUrl: input.failedUrl } : {}),
    });
  }

  pendingClaims(): Claims | undefined {
    return this.#kv.get<Claims>(KEYS.claims);
  }

  setPendingClaims(claims: Claims): void {
    this.#kv.put<Claims>(KEYS.claims, { amount: claims.amount, currency: claims.currency });
  }

  dropPendingClaims(): void {
    this.#kv.delete(KEYS.claims);
  }

  /** Whether a lock of `invoiceId` may have reached the service unheard. */
  lockUnconfirmed(invoiceId: string): boolean {
    return this.#kv.get<string>(KEYS.lockUnconfirmed) === invoiceId;
  }

  markLockUnconfirmed(invoiceId: string): void {
    this.#kv.put(KEYS.lockUnconfirmed, invoiceId);
  }

  confirmLock(): void {
    this.#kv.delete(KEYS.lockUnconfirmed);
  }

  /**
   * The last confirmed lock of `invoiceId`, or null: none, another invoice's, or a later lock
   * that may have reached the service unheard (the service may then hold any terms).
   */
  lockFact(invoiceId: string): LockFact | null {
    if (this.lockUnconfirmed(invoiceId)) return null;
    return this.lastLockFact(invoiceId);
  }

  /** The last confirmed lock of `invoiceId` even while a later one is unconfirmed. */
  lastLockFact(invoiceId: string): LockFact | null {
    const stored = this.#kv.get<LockFact & { invoiceId: string }>(KEYS.lockFact);
    if (stored?.invoiceId !== invoiceId) return null;
    return { terms: stored.terms, replaced: stored.replaced };
  }

  setLockFact(invoiceId: string, fact: LockFact): void {
    this.#kv.put(KEYS.lockFact, { invoiceId, terms: fact.terms, replaced: fact.replaced });
  }

  /** The tolerance the order opened with, if it was kept (older orders: the deployment's). */
  tolerance(): string | undefined {
    return this.#kv.get<string>(KEYS.tolerance);
  }

  setTolerance(percent: string): void {
    this.#kv.put(KEYS.tolerance, percent);
  }

  fiatMinimum(): string | null {
    return this.#kv.get<string>(KEYS.fiatMinimum) ?? null;
  }

  /**
   * Keeps the fiat minimum an open brought, written only when it changed: a reopen then
   * writes nothing, and its answer waits for no commit.
   */
  refreshFiatMinimum(minimum: string | null | undefined): void {
    if (minimum && this.fiatMinimum() !== minimum) this.#kv.put(KEYS.fiatMinimum, minimum);
  }
}
