/**
 * @module admin-x402
 * The sandbox's own controls of its x402 facilitator, under /sandbox/x402 (no API key, like
 * every admin helper): a payer's simulated USDC balance (read, set), "the next settlement fails
 * on chain", the confirm delay ("settlement confirms slowly"), the facilitator's setup and the
 * settlements as they are (never faulted). None of these exist on the real service.
 */
import type { Hono } from "hono";
import { Dec, decimalPlaces } from "./decimal.ts";
import { optionalInt, optionalString, readAdminAmount } from "./fields.ts";
import type { SandboxState } from "./state.ts";
import { dataResponse, invalidBody, readJsonObject, WireError } from "./wire.ts";
import { X402_DEFAULT_FAILURE } from "./x402-records.ts";
import { payerBalance, X402_NETWORK, X402_USDC } from "./x402-verify.ts";
import { FACILITATOR_ADDRESS } from "./x402-wallets.ts";

const ATOMIC_PER_USDC = "1000000";
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A failure reason: the protocol's snake_case style, bounded. */
const REASON = /^[a-z][a-z0-9_]{0,99}$/;

/**
 * Atomic USDC as a plain decimal string.
 * @example
 * usdcText(12_500_000n); // "12.5"
 */
export function usdcText(atomic: bigint): string {
  return new Dec(atomic.toString()).div(ATOMIC_PER_USDC).toFixed();
}

function payerParam(address: string): string {
  if (!ADDRESS.test(address)) throw invalidBody("the payer must be a 0x address (40 hex digits)");
  return address.toLowerCase();
}

function balanceView(state: SandboxState, payer: string) {
  const atomic = payerBalance(state, payer);
  return { address: payer, balance: usdcText(atomic), atomic: atomic.toString() };
}

/** The facilitator's setup and controls, as `GET /sandbox/x402` shows them. */
function setupView(state: SandboxState) {
  const x = state.x402;
  return {
    facilitator: FACILITATOR_ADDRESS,
    network: X402_NETWORK,
    asset: X402_USDC.address,
    wallets: state.options.x402Wallets,
    confirmMs: x.confirmMs,
    failNext: { ...x.failNext },
    settlements: x.settlements.size,
    limit: x.limit,
  };
}

/**
 * Registers the /sandbox/x402 routes (called from `registerAdmin`, behind its CORS).
 * @example
 * registerX402Admin(app, state);
 */
export function registerX402Admin(app: Hono, state: SandboxState): void {
  app.get("/sandbox/x402", () => dataResponse(setupView(state)));
  app.get("/sandbox/x402/payers/:address/balance", (c) =>
    dataResponse(balanceView(state, payerParam(c.req.param("address")))),
  );
  app.post("/sandbox/x402/payers/:address/balance", async (c) => {
    const payer = payerParam(c.req.param("address"));
    const amount = readAdminAmount(await readJsonObject(c.req.raw), "balance");
    if (amount === null || decimalPlaces(amount) > 6) {
      throw invalidBody("balance is required: USDC as a decimal string, at most 6 decimal places");
    }
    const x = state.x402;
    if (!x.balances.has(payer) && x.balances.size >= x.limit) {
      throw new WireError(
        503,
        "exceptions.sandbox.x402Full",
        `The sandbox keeps at most ${x.limit} x402 payers: restart it`,
      );
    }
    x.balances.set(payer, BigInt(amount.times(ATOMIC_PER_USDC).toFixed(0)));
    return dataResponse(balanceView(state, payer));
  });
  // Arms the next `times` settlements (default 1; 0 disarms) to fail on chain with `reason`.
  app.post("/sandbox/x402/fail-next", async (c) => {
    const body = await readJsonObject(c.req.raw);
    const times = optionalInt(body, "times", 0, 1000) ?? 1;
    const reason = optionalString(body, "reason") ?? X402_DEFAULT_FAILURE;
    if (!REASON.test(reason))
      throw invalidBody("reason must be snake_case, at most 100 characters");
    state.x402.failNext = { remaining: times, reason };
    return dataResponse(setupView(state));
  });
  // How long a broadcast settlement stays `submitted`: settlements made after this change.
  app.put("/sandbox/x402/confirm-delay", async (c) => {
    const ms = optionalInt(await readJsonObject(c.req.raw), "ms", 0, 600_000);
    if (ms === null) throw invalidBody("ms is required: an integer from 0 to 600000");
    state.x402.confirmMs = ms;
    return dataResponse(setupView(state));
  });
  app.get("/sandbox/x402/settlements", () =>
    dataResponse([...state.x402.settlements.values()].reverse().map((r) => r.settlement)),
  );
}
