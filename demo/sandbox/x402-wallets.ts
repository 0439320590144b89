/**
 * @module x402-wallets
 * Who the sandbox's x402 facilitator is and whom it pays: its own signer (the account that
 * would pay the gas of each `transferWithAuthorization`) and the merchant wallets the tenant
 * registered (`SANDBOX_X402_WALLETS`). The real service pays only to a registered wallet, so a
 * requirement whose `payTo` is anything else is refused: nobody can use the tenant's key to
 * have the service pay gas for transfers to an arbitrary address.
 *
 * Invariant: every wallet kept is EIP-55 (checksummed); comparisons go through `sameAddress`.
 */
import { getAddress, isAddress } from "viem";

/** The sandbox facilitator's signer (`GET /x402/supported` → `signers`). Holds nothing. */
export const FACILITATOR_ADDRESS = "0xFAc1117402000000000000000000000000084532";

/**
 * The demo merchant's wallet, registered when `SANDBOX_X402_WALLETS` is unset: the demo wires
 * the worker's `X402_PAY_TO` to it. A made-up address, no key exists for it.
 */
export const DEMO_X402_WALLET = "0x5A4Db0c0FfEE000000000000000000000000d3e0";

/** At most this many registered wallets (the variable is one line of an env file). */
export const MAX_X402_WALLETS = 32;

/**
 * The wallets of a list as EIP-55 addresses. Throws `Error` naming `SANDBOX_X402_WALLETS` for
 * an entry that is not `0x` + 40 hex (all-lowercase or all-uppercase hex, or mixed case with a
 * valid EIP-55 checksum), for an empty list and for more than `MAX_X402_WALLETS`.
 * @example
 * x402Wallets(["0x5a4db0c0ffee000000000000000000000000d3e0"]); // ["0x5A4Db0c0FfEE000000000000000000000000d3e0"]
 * x402Wallets(["0x5A4Db0c0FFEE000000000000000000000000d3e0"]); // throws: bad checksum
 */
export function x402Wallets(list: readonly string[]): string[] {
  if (list.length === 0 || list.length > MAX_X402_WALLETS) {
    throw new Error(
      `SANDBOX_X402_WALLETS must name 1 to ${MAX_X402_WALLETS} wallets, got ${list.length}`,
    );
  }
  return list.map((entry) => {
    const text = entry.trim();
    const plainHex = /^0x(?:[0-9a-f]{40}|[0-9A-F]{40})$/.test(text);
    if (!plainHex && !isAddress(text, { strict: true })) {
      throw new Error(
        `SANDBOX_X402_WALLETS must be comma-separated 0x addresses (40 hex digits, EIP-55 checksum when mixed case), got ${JSON.stringify(entry.slice(0, 100))}`,
      );
    }
    return getAddress(text.toLowerCase());
  });
}

/**
 * The wallets of `SANDBOX_X402_WALLETS` (comma-separated); the demo wallet when unset.
 * @example
 * parseX402Wallets(null); // [DEMO_X402_WALLET]
 * parseX402Wallets("0xabc"); // throws, naming the variable
 */
export function parseX402Wallets(text: string | null): string[] {
  return text === null ? [DEMO_X402_WALLET] : x402Wallets(text.split(","));
}

/**
 * True when two 0x addresses are the same account (case ignored).
 * @example
 * sameAddress(DEMO_X402_WALLET, DEMO_X402_WALLET.toLowerCase()); // true
 */
export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
