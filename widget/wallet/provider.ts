/**
 * @module
 * The EIP-1193 provider as the wallet flow calls it: one `request` per step, where the
 * shopper's refusal (error code 4001), a transaction the wallet cannot fund ("insufficient
 * funds", or the node's generic -32000 that wallets relay for it) and any other wallet failure
 * become `Stop`s with their words; the wallet's own message travels along for the developer. No wallet library: the four or five calls the flow makes are plain JSON-RPC.
 */
import { Stop } from "./stop.ts";

/** What a wallet exposes (EIP-1193). */
export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/**
 * The EIP-1193 error code of a wallet failure (some wallets nest it, e.g. MetaMask Mobile
 * reports an unknown chain as `-32603` with the original 4902 inside), or undefined.
 *
 * @example
 * codeOf({ code: 4001, message: "User rejected the request." }) // 4001
 */
export function codeOf(e: unknown): unknown {
  const error = e as { code?: unknown; data?: { originalError?: { code?: unknown } } } | null;
  return error?.data?.originalError?.code ?? error?.code;
}

/**
 * Calls the wallet; a refusal is "you declined", an unfunded transaction "not enough funds",
 * anything else "the wallet could not".
 *
 * @example
 * const [payer] = (await ask(provider, "eth_requestAccounts")) as string[];
 */
export async function ask(provider: Eip1193, method: string, params?: unknown[]) {
  try {
    return await provider.request({ method, params });
  } catch (e) {
    const code = codeOf(e);
    const reason = String((e as { message?: unknown } | null)?.message ?? code);
    throw new Stop(
      code === 4001
        ? "walletDeclined"
        : code === -32000 || /insufficient funds/i.test(reason)
          ? "walletNoFunds"
          : "walletFailed",
      { reason },
    );
  }
}
