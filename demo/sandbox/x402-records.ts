/**
 * @module x402-records
 * The x402 facilitator's records as `SandboxState` keeps them: settlements, the simulated
 * payers' USDC balances and the nonces used on the simulated chain. Types only (and the empty
 * state), importing nothing at run time, so the state and the modules that act on these records
 * never import each other.
 *
 * Invariants:
 * - Amounts are atomic USDC units (6 decimals) as `bigint`; never a JS number.
 * - `byNonce` holds the nonce of every settlement that is `submitted` or `confirmed`; a `failed`
 *   one gives its nonce back (a reverted transfer leaves `authorizationState` unset on chain).
 * - `settlements` and `balances` hold at most `limit` entries each (a new one past it is refused).
 */

/** Where a settlement is: broadcast, then mined (`confirmed`) or reverted (`failed`). */
export type X402Status = "submitted" | "confirmed" | "failed";

/** The statuses a settlement can have, for list filters. */
export const X402_STATUSES: readonly X402Status[] = ["submitted", "confirmed", "failed"];

/** A settlement as the service's merchant API answers it (and as its webhooks carry it). */
export interface X402Settlement {
  id: string;
  status: X402Status;
  /** CAIP-2, `eip155:84532`. */
  network: string;
  /** The token contract (EIP-55). */
  asset: string;
  /** Atomic units, a decimal integer string. */
  amount: string;
  payer: string;
  payTo: string;
  /** `0x` + 64 hex once broadcast; empty only before. */
  transaction: string;
  errorReason: string | null;
  createdAt: string;
  confirmedAt: string | null;
}

/** A settlement plus what the facilitator needs to answer a repeat and to undo a failure. */
export interface X402SettlementRecord {
  settlement: X402Settlement;
  /** `payer|nonce`, lowercase: the authorization's identity on chain. */
  nonceKey: string;
  /** The payer's signature, lowercase: a repeat with the same one is the same authorization. */
  signature: string;
  /** What was taken from the payer's balance (given back when the transfer fails). */
  debit: bigint;
  /** Set when the settlement was armed to fail: the reason it fails with. */
  failsWith: string | null;
}

/** The facilitator's whole state. */
export interface X402State {
  /** Settlement id → record, oldest first (insertion order). */
  settlements: Map<string, X402SettlementRecord>;
  /** `payer|nonce` (lowercase) → id of the live settlement that used the nonce. */
  byNonce: Map<string, string>;
  /** Payer (lowercase) → atomic USDC; a payer never seen has `X402_START_BALANCE`. */
  balances: Map<string, bigint>;
  /** The next `remaining` settlements fail on chain with `reason`. */
  failNext: { remaining: number; reason: string };
  /** How long a broadcast settlement takes to confirm (or fail). */
  confirmMs: number;
  /** Cap of `settlements` and of `balances` each. */
  limit: number;
}

/** Every payer's starting balance: 1,000 test USDC. */
export const X402_START_BALANCE = 1_000_000_000n;

/** Default cap of settlements and of payers kept. */
export const X402_LIMIT = 10_000;

/** The reason an armed settlement fails with unless one is given. */
export const X402_DEFAULT_FAILURE = "invalid_exact_evm_transaction_failed";

/**
 * An empty facilitator state.
 * @example
 * const x402 = createX402State(3000);
 */
export function createX402State(confirmMs: number): X402State {
  return {
    settlements: new Map(),
    byNonce: new Map(),
    balances: new Map(),
    failNext: { remaining: 0, reason: X402_DEFAULT_FAILURE },
    confirmMs,
    limit: X402_LIMIT,
  };
}
