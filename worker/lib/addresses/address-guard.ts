/**
 * @module
 * The worker's refusal of a bad address: `address-rules.ts` (shared with the widget) judges,
 * this turns anything but `ok` into 400 `invalid_address` with a message saying which rule
 * failed. Used for shoppers' refund addresses and merchants' payout addresses alike, before
 * anything is stored or sent.
 */
import type { CryptoCurrency } from "../../../packages/contract/src/http-api.ts";
import { ApiError } from "../api-error.ts";
import { networkKind } from "../wallet/networks.ts";
import { checkAddress } from "./address-rules.ts";

/**
 * Returns the address without surrounding blanks, or throws 400 `invalid_address`.
 *
 * @example
 * await requireAddress(usdtTrc20, "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", true); // the address
 * await requireAddress(btc, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", true); // throws: mainnet in sandbox mode
 */
export async function requireAddress(
  currency: CryptoCurrency,
  raw: string,
  sandbox: boolean,
): Promise<string> {
  const verdict = await checkAddress(currency, raw, sandbox);
  if (verdict === "ok") return raw.trim();
  const { code, network } = currency;
  const evm = ["ethereum", "bsc"].includes(networkKind(network) ?? "");
  const message =
    verdict === "checksum"
      ? evm
        ? `This ${code} address has a typo: its EIP-55 checksum (the mix of upper- and lower-case letters) does not match.`
        : `This ${code} address has a typo: its checksum does not match.`
      : verdict === "network"
        ? sandbox
          ? `This is a mainnet ${network} address, but sandbox mode takes test-network addresses only.`
          : `This is a test-network ${network} address; only mainnet addresses can receive funds here.`
        : `This is not a valid ${code} address on ${network}.`;
  throw new ApiError(400, "invalid_address", message);
}
