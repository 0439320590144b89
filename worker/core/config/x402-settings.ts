/**
 * @module
 * The deployment's x402 settings, resolved from the configuration: whether x402 is on, the
 * network and its USDC, the merchant's wallet, and the facilitator's URL.
 *
 * *Assumed*: the facilitator lives at the service's base URL + `/x402`. The service does not
 * publish its facilitator's address; `X402_FACILITATOR_URL` overrides it (ask the service's
 * support for "the x402 facilitator URL for my API key", and whether the key has the scopes
 * `x402.verify`, `x402.settle` and `x402.list`).
 */
import { BASE, BASE_SEPOLIA, usdcOn, type X402Asset } from "../../lib/x402/networks.ts";
import { resolveUpstreamBaseUrl } from "../../service/base-url.ts";
import type { Config } from "./config.ts";

/** What x402 payments of this deployment use. */
export interface X402Settings {
  /** The merchant's wallet (EIP-55): every payment goes here, never to the service. */
  payTo: string;
  /** USDC on the deployment's network. */
  asset: X402Asset;
  /** The facilitator's base URL (no trailing slash): `<url>/verify`, `/settle`, `/supported`. */
  facilitatorUrl: string;
  /**
   * How long a signed authorization may stay valid, in seconds (the requirements'
   * `maxTimeoutSeconds`): long enough to confirm in a wallet, short enough that a signature
   * left behind in a closed tab soon can pay nothing.
   */
  maxTimeoutSeconds: number;
}

/** `maxTimeoutSeconds` of every offer. */
export const X402_MAX_TIMEOUT_SECONDS = 300;

/**
 * The x402 settings, or null when x402 is off (`X402_PAY_TO` unset).
 *
 * @example
 * const x402 = x402Settings(config);
 * if (x402) x402.asset.address; // USDC on Base Sepolia with SANDBOX=true
 */
export function x402Settings(config: Config): X402Settings | null {
  if (!config.X402_PAY_TO) return null;
  const network = config.X402_NETWORK ?? (config.SANDBOX ? BASE_SEPOLIA : BASE);
  const asset = usdcOn(network);
  // The configuration's own check refused every other network.
  if (!asset) throw new Error(`no USDC known on ${network}`);
  return {
    payTo: config.X402_PAY_TO,
    asset,
    facilitatorUrl:
      config.X402_FACILITATOR_URL ??
      `${resolveUpstreamBaseUrl({ sandbox: config.SANDBOX, override: config.UPSTREAM_BASE_URL })}/x402`,
    maxTimeoutSeconds: X402_MAX_TIMEOUT_SECONDS,
  };
}
