/**
 * @module api-x402
 * The service's x402 facilitator routes, behind the API key like every API route (and so
 * through the request log, the rate limit and fault injection): `GET /x402/supported`,
 * `POST /x402/verify`, `POST /x402/settle` answer bare JSON, as x402 facilitators do and as
 * `@x402/core`'s `HTTPFacilitatorClient` reads them (a refusal is a 200 with `isValid:false` /
 * `success:false`); `GET /x402/settlements[/:id]` are the merchant API's, in `{data}` envelopes.
 */
import type { Hono } from "hono";
import type { SupportedResponse } from "../../worker/lib/x402/protocol.ts";
import { X402_VERSION } from "../../worker/lib/x402/protocol.ts";
import type { SandboxState } from "./state.ts";
import { dataResponse, plainJsonResponse } from "./wire.ts";
import { MAX_BODY_BYTES, parseFacilitatorCall, readBoundedText } from "./x402-request.ts";
import { settlePayment } from "./x402-settle.ts";
import { findSettlement, listSettlements } from "./x402-settlements.ts";
import { verifyPayment, X402_NETWORK } from "./x402-verify.ts";
import { FACILITATOR_ADDRESS } from "./x402-wallets.ts";

/**
 * What the facilitator supports: `exact` on Base Sepolia, signed by its one signer.
 * @example
 * supported().kinds[0].network; // "eip155:84532"
 */
export function supported(): SupportedResponse {
  return {
    kinds: [{ x402Version: X402_VERSION, scheme: "exact", network: X402_NETWORK }],
    extensions: [],
    signers: { "eip155:*": [FACILITATOR_ADDRESS] },
  };
}

/**
 * Registers the /x402/* routes.
 * @example
 * registerX402(app, state);
 */
export function registerX402(app: Hono, state: SandboxState): void {
  const call = async (request: Request) =>
    parseFacilitatorCall(await readBoundedText(request, MAX_BODY_BYTES));
  app.get("/x402/supported", () => plainJsonResponse(supported()));
  app.post("/x402/verify", async (c) =>
    plainJsonResponse(await verifyPayment(state, await call(c.req.raw))),
  );
  app.post("/x402/settle", async (c) =>
    plainJsonResponse(await settlePayment(state, await call(c.req.raw))),
  );
  app.get("/x402/settlements", (c) => listSettlements(state, new URL(c.req.url).searchParams));
  app.get("/x402/settlements/:id", (c) => dataResponse(findSettlement(state, c.req.param("id"))));
}
