/**
 * @module
 * Bearer authentication of the merchant API with `MERCHANT_API_TOKEN` (constant-time compare
 * via hono's bearer-auth), answering 401 `unauthorized` as JSON.
 */
import { bearerAuth } from "hono/bearer-auth";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./types.ts";

/** Requires `Authorization: Bearer <MERCHANT_API_TOKEN>`. Must run after `requireConfig`. */
export const merchantAuth = createMiddleware<AppEnv>(async (c, next) => {
  const auth = bearerAuth({
    token: c.var.config.MERCHANT_API_TOKEN,
    noAuthenticationHeader: {
      message: () => errorBody("Send Authorization: Bearer <MERCHANT_API_TOKEN>."),
    },
    invalidAuthenticationHeader: { message: () => errorBody("Malformed Authorization header.") },
    invalidToken: { message: () => errorBody("The merchant API token is not valid.") },
  });
  return auth(c as never, next);
});

const errorBody = (message: string) => ({ error: { code: "unauthorized", message } });
