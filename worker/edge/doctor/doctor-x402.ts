/**
 * @module
 * The doctor's x402 check: off (no `X402_PAY_TO`: shoppers pay by invoice only), or the
 * facilitator's `GET supported` asked with the API key: does it offer scheme `exact` on the
 * deployment's network, and USDC there (a kind's `extra.assets`, when the facilitator lists
 * assets). The wallet's form (EIP-55) was already checked when the configuration parsed. The
 * answer is reused for `SUPPORTED_TTL_MS` per isolate and configuration, like the accounts
 * check (`doctor-accounts.ts`): asking again and again costs one call per period.
 */
import type { Config } from "../../core/config/config.ts";
import { facilitatorFor, MERCHANT_CALL } from "../../core/config/upstream.ts";
import { x402Settings } from "../../core/config/x402-settings.ts";
import type { SupportedResponse } from "../../lib/x402/protocol.ts";
import { UpstreamError } from "../../service/errors.ts";
import type { DoctorCheck } from "./doctor-report.ts";

/** How long one `supported` answer is reused. */
export const SUPPORTED_TTL_MS = 30_000;

const kept = new Map<string, { at: number; answer: SupportedResponse }>();

/**
 * The x402 line of the report.
 *
 * @example
 * checks.push(await x402Check(config));
 */
export async function x402Check(config: Config, now = Date.now()): Promise<DoctorCheck> {
  const settings = x402Settings(config);
  if (!settings) {
    return {
      name: "x402",
      ok: true,
      message:
        "Wallet payments (x402) are off: set X402_PAY_TO to your wallet (registered in the service's dashboard) to offer them.",
    };
  }
  const { asset, payTo, facilitatorUrl } = settings;
  const where = `${asset.chainName} (${asset.network})`;
  let supported: SupportedResponse;
  try {
    const key = `${facilitatorUrl}|${config.ACCOUNT_ID}|${config.API_KEY.length}`;
    const hit = kept.get(key);
    if (hit && now - hit.at < SUPPORTED_TTL_MS) supported = hit.answer;
    else {
      supported = await facilitatorFor(config, MERCHANT_CALL)!.supported();
      if (kept.size > 16) kept.clear();
      kept.set(key, { at: now, answer: supported });
    }
  } catch (error) {
    const why =
      error instanceof UpstreamError
        ? error.status === 401 || error.status === 403
          ? "the API key was refused: it needs the scopes x402.verify, x402.settle and x402.list"
          : `${error.kind}${error.status ? ` ${error.status}` : ""}`
        : "error";
    return {
      name: "x402",
      ok: false,
      message: `The x402 facilitator at ${facilitatorUrl} did not answer GET supported (${why}). The service does not publish its facilitator's URL: ask its support for it and set X402_FACILITATOR_URL.`,
    };
  }
  const kind = supported.kinds.find((k) => k.scheme === "exact" && k.network === asset.network);
  if (!kind) {
    return {
      name: "x402",
      ok: false,
      message: `The facilitator does not offer scheme exact on ${where}; it offers ${supported.kinds.map((k) => `${k.scheme} on ${k.network}`).join(", ") || "nothing"}.`,
    };
  }
  const assets = (kind.extra as { assets?: unknown } | undefined)?.assets;
  if (Array.isArray(assets)) {
    const listed = assets.some((a) =>
      JSON.stringify(a).toLowerCase().includes(asset.address.toLowerCase()),
    );
    if (!listed) {
      return {
        name: "x402",
        ok: false,
        message: `The facilitator offers ${where} but not USDC (${asset.address}) there.`,
      };
    }
  }
  return {
    name: "x402",
    ok: true,
    message: `Wallet payments (x402): USDC on ${where} to ${payTo}, through the facilitator at ${facilitatorUrl}. Make sure this wallet is registered in the service's dashboard.`,
  };
}
