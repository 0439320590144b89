/**
 * @module
 * The one transaction a browser wallet sends to pay an invoice's address itself (not x402):
 * the chain, the recipient and the exact amount still due, in base units.
 * - native coin (ETH, BNB, …): `{ to: address, value: 0x<units> }`;
 * - token with a contract (ERC-20 / BEP-20): `{ to: contract, value: 0x0, data: transfer(address, units) }`.
 *
 * Invariants: the amount is converted exactly (`toBaseUnits` throws rather than rounds, never a
 * float); a sandbox invoice names its test network's chain id and never a main-network token
 * contract (as `wallet-uri.ts`: a wallet that ignored the chain would move real money); a
 * network without chain ids, a token without a contract, or a malformed address gives null:
 * nothing this wallet can pay.
 */
import type {
  CryptoCurrency,
  PaymentInstructions,
} from "../../../packages/contract/src/http-api.ts";
import { toBaseUnits } from "../money/units.ts";
import { evmChainId, isMainnetToken } from "./networks.ts";

/** What `eth_sendTransaction` is given (every number `0x` hex), and on which chain. */
export interface WalletTransfer {
  chainId: number;
  to: string;
  value: string;
  /** The ERC-20 `transfer` call, for a token. */
  data?: string;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** `transfer(address,uint256)`'s selector (the first 4 bytes of its Keccak-256). */
const TRANSFER = "0xa9059cbb";

/** A 32-byte ABI word of a hex number or address (no `0x`). */
const word = (hex: string) => hex.padStart(64, "0");

/**
 * The transaction paying what is still due on `payment` (`remaining`, or `amount` while
 * nothing was received) in `currency`, or null when a wallet cannot pay it this way.
 *
 * @example
 * walletTransfer(
 *   { network: "Ethereum", contractAddress: null },
 *   { network: "Ethereum", decimalPlaces: 18, amount: "0.5", received: "0", remaining: "0.5", address: "0x…" },
 *   true,
 * ); // { chainId: 11155111, to: "0x…", value: "0x6f05b59d3b20000" }
 */
export function walletTransfer(
  currency: Pick<CryptoCurrency, "network" | "contractAddress"> | null | undefined,
  payment: Pick<
    PaymentInstructions,
    "network" | "decimalPlaces" | "amount" | "received" | "remaining" | "address"
  >,
  sandbox: boolean,
): WalletTransfer | null {
  const chainId = evmChainId(payment.network, sandbox);
  if (chainId === null || !currency || !EVM_ADDRESS.test(payment.address)) return null;
  const due = /[1-9]/.test(payment.received) ? payment.remaining : payment.amount;
  let units: bigint;
  try {
    units = toBaseUnits(due, payment.decimalPlaces);
  } catch {
    return null;
  }
  if (units <= 0n) return null;
  const hex = units.toString(16);
  const contract = currency.contractAddress;
  if (!contract) return { chainId, to: payment.address, value: `0x${hex}` };
  if (!EVM_ADDRESS.test(contract) || (sandbox && isMainnetToken(contract))) return null;
  const data = `${TRANSFER}${word(payment.address.slice(2).toLowerCase())}${word(hex)}`;
  return { chainId, to: contract, value: "0x0", data };
}
