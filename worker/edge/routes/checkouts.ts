/**
 * @module
 * The widget's checkout routes: open (token → order object → upstream invoice), snapshot,
 * currency lock, retry, refund address, paying from a wallet (x402, `x402.ts`), and the SSE
 * stream.
 */

import { fiatCurrencies } from "../../core/catalog/catalog.ts";
import { cryptoEntry, liveList } from "../../core/catalog/live-entry.ts";
import { paymentModeFor } from "../../core/config/payment-mode.ts";
import { streamThroughHub } from "../../core/streams/hub-route.ts";
import { requireAddress } from "../../lib/addresses/address-guard.ts";
import {
  lockCurrencyBody,
  openCheckoutBody,
  refundAddressBody,
} from "../../lib/api/schemas/requests.ts";
import { ApiError } from "../../lib/api-error.ts";
import { checkoutIdFor } from "../../lib/ids/checkout-id.ts";
import { checkFiatAmount } from "../../lib/money/fiat-rules.ts";
import { unwrap } from "../../lib/outcome/outcome.ts";
import { orderStubFromUrl } from "../../order/order-stub.ts";
import { readJson } from "../http/json-body.ts";
import { callerKey, limitBody, underCreationLimit, underLockLimit } from "../http/limits.ts";
import { Hono } from "../http/router.ts";
import type { AppEnv } from "../http/types.ts";
import { verifyCheckoutToken } from "../token/verify.ts";
import { payWithX402 } from "./x402.ts";

export const checkoutRoutes = new Hono<AppEnv>();

/**
 * Opens a checkout. The token, the fiat amount and the checkout's id are checked while the
 * per-client limit is asked (`underCreationLimit`): the order object is touched only once both
 * said yes.
 */
checkoutRoutes.post("/", limitBody(), (c) =>
  underCreationLimit(
    c,
    async () => {
      const { config, log } = c.var;
      const { token } = await readJson(c, openCheckoutBody);
      const claims = await verifyCheckoutToken(token, config.CHECKOUT_SIGNING_SECRET, {
        sandbox: config.SANDBOX,
      });
      if (claims.mode === "deposit") {
        throw new ApiError(
          400,
          "validation_failed",
          "This is a top-up token; open it with POST /v1/deposits.",
        );
      }
      const fiatList = await liveList(fiatCurrencies, config, log);
      const fiat = checkFiatAmount(fiatList, claims.amount, claims.currency);
      const checkoutId = await checkoutIdFor("invoice", claims.sub, config.CHECKOUT_SIGNING_SECRET);
      return { claims, fiat, checkoutId };
    },
    async ({ claims, fiat, checkoutId }) => {
      // Kept by the order when it opens: the service's answer, asked once per deployment.
      const [{ mode }, client] = await Promise.all([
        paymentModeFor(c.env, c.var.config),
        callerKey(c),
      ]);
      const stub = orderStubFromUrl(c.env, checkoutId);
      const { created, snapshot } = unwrap(
        await stub.open({
          checkoutId,
          invoiceNumber: claims.sub,
          amount: claims.amount,
          currency: claims.currency,
          fiatDecimalPlaces: fiat.decimalPlaces,
          minInvoiceAmount: fiat.minInvoiceAmount,
          description: claims.description ?? null,
          customerId: claims.customerId ?? null,
          returnUrl: claims.returnUrl ?? null,
          successUrl: claims.successUrl ?? null,
          failedUrl: claims.failedUrl ?? null,
          mode,
          client,
        }),
      );
      return c.json({ data: snapshot }, created ? 201 : 200);
    },
  ),
);

checkoutRoutes.get("/:id", async (c) => {
  const snapshot = unwrap(await orderStubFromUrl(c.env, c.req.param("id")).view());
  return c.json({ data: snapshot }, 200, { "cache-control": "no-store" });
});

/**
 * Locks a currency. Limited per client across all its checkouts (`underLockLimit`), and the
 * lock's call counts in the client's share of the upstream budget (`client`).
 */
checkoutRoutes.post("/:id/currency", limitBody(), async (c) => {
  const client = await callerKey(c);
  return underLockLimit(
    c,
    client,
    async () => {
      const { cryptoCurrencyCode } = await readJson(c, lockCurrencyBody);
      return cryptoEntry(c.var.config, c.var.log, cryptoCurrencyCode, "this checkout");
    },
    async (entry) => {
      const stub = orderStubFromUrl(c.env, c.req.param("id"));
      return c.json({ data: unwrap(await stub.lockCurrency(entry, client)) });
    },
  );
});

checkoutRoutes.post("/:id/retry", limitBody(), async (c) => {
  const stub = orderStubFromUrl(c.env, c.req.param("id"));
  return c.json({ data: unwrap(await stub.retry(await callerKey(c))) });
});

checkoutRoutes.post("/:id/refund-address", limitBody(), async (c) => {
  const stub = orderStubFromUrl(c.env, c.req.param("id"));
  const { cryptoCurrencyCode, address } = await readJson(c, refundAddressBody);
  const entry = await cryptoEntry(c.var.config, c.var.log, cryptoCurrencyCode, "this checkout");
  const checked = await requireAddress(entry, address, c.var.config.SANDBOX);
  return c.json({ data: unwrap(await stub.setRefundAddress(cryptoCurrencyCode, checked)) });
});

checkoutRoutes.post("/:id/x402", limitBody(), payWithX402);

checkoutRoutes.get("/:id/events", async (c) => {
  const id = c.req.param("id");
  return streamThroughHub(c.env, c.req.raw, id, "order", orderStubFromUrl(c.env, id).id);
});
