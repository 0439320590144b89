/**
 * @module
 * `GET /v1/currencies[?network=]` and `GET /v1/currencies/fiat`: the live lists, amounts as
 * decimal strings, cacheable by browsers for a short while.
 */
import { Hono } from "hono";
import { cryptoCurrencies, fiatCurrencies } from "../checkout/catalog.ts";
import { ApiError } from "../http/api-error.ts";
import type { AppEnv } from "../http/types.ts";
import { unwrap } from "../order/outcome.ts";
import { upstreamFailure } from "../order/upstream-failure.ts";

export const currencyRoutes = new Hono<AppEnv>();

const CACHE = "public, max-age=30";

currencyRoutes.get("/", async (c) => {
  const network = c.req.query("network");
  if (network !== undefined && !/^[A-Za-z0-9 _-]{1,40}$/.test(network)) {
    throw new ApiError(400, "validation_failed", "network must be a network name such as Tron.");
  }
  try {
    const data = await cryptoCurrencies(c.var.config, network || undefined);
    return c.json({ data }, 200, { "cache-control": CACHE });
  } catch (error) {
    return unwrap(upstreamFailure(error, c.var.log));
  }
});

currencyRoutes.get("/fiat", async (c) => {
  try {
    const data = await fiatCurrencies(c.var.config);
    return c.json({ data }, 200, { "cache-control": CACHE });
  } catch (error) {
    return unwrap(upstreamFailure(error, c.var.log));
  }
});
