/**
 * @module
 * The widget's top-up routes: open (token with `mode: "deposit"` → top-up object → upstream
 * `POST /deposit`), snapshot, and the SSE stream. Mounted under the same CORS, body-size and
 * rate limits as `/v1/checkouts`.
 */

import type { Context } from "hono";
import { cryptoEntry } from "../../core/catalog/live-entry.ts";
import { streamThroughHub } from "../../core/streams/hub-route.ts";
import { depositStub, depositStubFromUrl } from "../../deposit/deposit-stub.ts";
import type { DepositCurrency } from "../../deposit/store.ts";
import { openDepositBody } from "../../lib/api/schemas/requests.ts";
import { ApiError } from "../../lib/api-error.ts";
import { checkoutIdFor } from "../../lib/ids/checkout-id.ts";
import { unwrap } from "../../lib/outcome/outcome.ts";
import type { UpstreamCryptoCurrency } from "../../service/types.ts";
import { readJson } from "../http/json-body.ts";
import { callerKey, limitBody, underCreationLimit } from "../http/limits.ts";
import { Hono } from "../http/router.ts";
import type { AppEnv } from "../http/types.ts";
import { verifyCheckoutToken } from "../token/verify.ts";

export const depositRoutes = new Hono<AppEnv>();

/** Reads and checks a top-up open (no write, no object touched): run while the limit is asked. */
async function prepareTopUp(c: Context<AppEnv>) {
  const { config, log } = c.var;
  const body = await readJson(c, openDepositBody);
  const claims = await verifyCheckoutToken(body.token, config.CHECKOUT_SIGNING_SECRET, {
    sandbox: config.SANDBOX,
  });
  if (claims.mode !== "deposit") {
    throw new ApiError(
      400,
      "validation_failed",
      "This is a payment token; open it with POST /v1/checkouts.",
    );
  }
  if (
    claims.cryptoCurrencyCode &&
    body.cryptoCurrencyCode &&
    claims.cryptoCurrencyCode !== body.cryptoCurrencyCode
  ) {
    throw new ApiError(
      400,
      "validation_failed",
      `This top-up is for ${claims.cryptoCurrencyCode}; the page asked for ${body.cryptoCurrencyCode}.`,
    );
  }
  const code = claims.cryptoCurrencyCode ?? body.cryptoCurrencyCode;
  if (!code) {
    throw new ApiError(
      400,
      "validation_failed",
      "cryptoCurrencyCode: choose the crypto currency to top up with.",
    );
  }
  // The catalogue carries the upstream entries whole; the deposit fee is kept for the snapshot.
  const entry = await cryptoEntry(config, log, code, "top-ups");
  const { depositNetworkFee, ...currency } = entry as UpstreamCryptoCurrency;
  const checkoutId = await checkoutIdFor("deposit", claims.sub, config.CHECKOUT_SIGNING_SECRET);
  return { claims, currency, depositNetworkFee, checkoutId };
}

/** Opens a top-up; the token and currency are checked while the per-client limit is asked. */
depositRoutes.post("/", limitBody(), (c) =>
  underCreationLimit(
    c,
    () => prepareTopUp(c),
    async ({ claims, currency, depositNetworkFee, checkoutId }) => {
      const stub = depositStub(c.env, checkoutId);
      const { created, snapshot } = unwrap(
        await stub.open({
          checkoutId,
          topUpId: claims.sub,
          customerId: claims.customerId ?? null,
          client: await callerKey(c),
          currency: {
            ...currency,
            depositNetworkFee: depositNetworkFee?.amount ?? null,
          } satisfies DepositCurrency,
        }),
      );
      return c.json({ data: snapshot }, created ? 201 : 200);
    },
  ),
);

depositRoutes.get("/:id", async (c) => {
  const snapshot = unwrap(await depositStubFromUrl(c.env, c.req.param("id")).view());
  return c.json({ data: snapshot }, 200, { "cache-control": "no-store" });
});

depositRoutes.get("/:id/events", async (c) => {
  const id = c.req.param("id");
  return streamThroughHub(c.env, c.req.raw, id, "deposit", depositStubFromUrl(c.env, id).id);
});
