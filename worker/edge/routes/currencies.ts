/**
 * @module
 * `GET /v1/currencies[?network=]` and `GET /v1/currencies/fiat`: the live lists, amounts as
 * decimal strings, cacheable by browsers for a short while. A network is a filter over the one
 * cached full list (`core/catalog/catalog.ts`): any value costs the service nothing. Queries
 * are strict (`http/query.ts`): another key, or `network` twice, is 400 `validation_failed`.
 */

import { cryptoCurrencies, fiatCurrencies } from "../../core/catalog/catalog.ts";
import { liveList } from "../../core/catalog/live-entry.ts";
import type { Config } from "../../core/config/config.ts";
import { currenciesQuery, fiatCurrenciesQuery } from "../../lib/api/schemas/requests.ts";
import { readQuery } from "../http/query.ts";
import { Hono } from "../http/router.ts";
import type { AppEnv } from "../http/types.ts";

export const currencyRoutes = new Hono<AppEnv>();

const CACHE = "public, max-age=30";

/**
 * The JSON body of each list, made once per list: the catalogue hands every request of a cache
 * period the same array (one per network the list names, one shared empty array for any other),
 * so a thousand widgets loading at once cost one serialisation, not a thousand. Weak: a list's
 * body goes with the list.
 */
const bodies = new WeakMap<object, string>();

function listResponse(data: object): Response {
  let body = bodies.get(data);
  if (body === undefined) {
    body = JSON.stringify({ data });
    bodies.set(data, body);
  }
  return new Response(body, {
    headers: { "content-type": "application/json; charset=UTF-8", "cache-control": CACHE },
  });
}

currencyRoutes.get("/", async (c) => {
  const { network } = readQuery(c, currenciesQuery);
  const read = (config: Config) => cryptoCurrencies(config, network || undefined);
  return listResponse(await liveList(read, c.var.config, c.var.log));
});

currencyRoutes.get("/fiat", async (c) => {
  readQuery(c, fiatCurrenciesQuery);
  return listResponse(await liveList(fiatCurrencies, c.var.config, c.var.log));
});
