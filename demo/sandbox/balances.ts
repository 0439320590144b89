/**
 * @module balances
 * The tenant's crypto balances: seeded with a few realistic amounts, credited by settled
 * invoices and completed deposits, debited exactly once per committed withdrawal.
 */
import { CRYPTO_CURRENCIES } from "./currencies.ts";
import { Dec, type Decimal } from "./decimal.ts";
import type { SandboxState } from "./state.ts";

/** Starting balances of a fresh sandbox. */
export const SEED_BALANCES: Record<string, string> = {
  USDT_TRC20: "5000",
  USDT_ERC20: "2000",
  ETH: "1",
  BTC: "0.1",
  TRX: "10000",
};

/**
 * Puts the starting balances into a state.
 * @example
 * seedBalances(state); balanceOf(state, "USDT_TRC20").toFixed(); // "5000"
 */
export function seedBalances(state: SandboxState): void {
  for (const [code, amount] of Object.entries(SEED_BALANCES)) {
    state.balances.set(code, new Dec(amount));
  }
}

/**
 * The balance of one currency (zero when never touched).
 * @example
 * balanceOf(state, "BNB").toFixed(); // "0"
 */
export function balanceOf(state: SandboxState, code: string): Decimal {
  return state.balances.get(code) ?? new Dec("0");
}

/**
 * Adds `amount` (may be negative) to a balance.
 * @example
 * adjustBalance(state, "TRX", new Dec("-1.1"));
 */
export function adjustBalance(state: SandboxState, code: string, amount: Decimal): void {
  state.balances.set(code, balanceOf(state, code).plus(amount));
}

/**
 * All balances in catalogue order, for `GET /sandbox/balances`.
 * @example
 * listBalances(state)[0]; // { cryptoCurrencyCode: "BTC", amount: Dec("0.1") }
 */
export function listBalances(state: SandboxState) {
  return CRYPTO_CURRENCIES.map((c) => ({
    cryptoCurrencyCode: c.code,
    amount: balanceOf(state, c.code),
  }));
}
