/**
 * @module
 * The worker's HTTP surface, assembled from route modules. See README "HTTP API".
 */
import { HTTPException } from "hono/http-exception";
import { publishedOpenApi } from "../lib/api/openapi/published.ts";
import { ApiError, errorHeaders, errorResponse } from "../lib/api-error.ts";
import { noSniff } from "./http/no-sniff.ts";
import { objectUnavailable } from "./http/object-unavailable.ts";
import { requireConfig } from "./http/require-config.ts";
import { Hono } from "./http/router.ts";
import { storefrontCors } from "./http/storefront-cors.ts";
import type { AppEnv } from "./http/types.ts";
import { checkoutRoutes } from "./routes/checkouts.ts";
import { currencyRoutes } from "./routes/currencies.ts";
import { depositRoutes } from "./routes/deposits.ts";
import { merchantRoutes } from "./routes/merchant.ts";
import { merchantOpsRoutes } from "./routes/merchant-ops.ts";
import { payoutRoutes } from "./routes/payouts.ts";
import { webhookRoutes } from "./routes/webhooks.ts";

export const app = new Hono<AppEnv>();

// First, so it wraps every answer below it: routes, errors and not-found alike.
app.use("*", noSniff);

// Before requireConfig: the contract is public and the same for every deployment, so it is
// served even before the worker is configured, and may be cached.
app.get("/v1/openapi.json", async (c) => {
  return new Response(await publishedOpenApi(c.env.ASSETS, c.req.url), {
    headers: {
      "content-type": "application/json; charset=UTF-8",
      "cache-control": "public, max-age=3600",
      "access-control-allow-origin": "*",
    },
  });
});

app.use("/v1/*", requireConfig);
app.use("/webhooks/*", requireConfig);
// "/x/*" also matches "/x": listing both ran CORS twice ("Vary: Origin, Origin").
for (const path of ["/v1/currencies/*", "/v1/checkouts/*", "/v1/deposits/*"]) {
  app.use(path, storefrontCors);
}

app.route("/v1/currencies", currencyRoutes);
app.route("/v1/checkouts", checkoutRoutes);
app.route("/v1/deposits", depositRoutes);
app.route("/v1", merchantRoutes);
app.route("/v1", merchantOpsRoutes);
// After merchantRoutes: its Bearer guard on /v1/payouts* must run first.
app.route("/v1/payouts", payoutRoutes);
app.route("/webhooks", webhookRoutes);

app.get("/", (c) => c.json({ name: "crypto-checkout", widget: "/widget.js" }));

/** Methods that some route (not a middleware, whose method is "ALL") serves at `path`. */
const methodsAt = (path: string) =>
  ["GET", "POST"].filter((method) =>
    app.router.match(method, path)[0].some(([[, route]]) => route.method !== "ALL"),
  );

// One mechanism for every route: a served path asked with another method is 405 with `Allow`.
app.notFound((c) => {
  const allow = methodsAt(c.req.path).join(", ");
  if (!allow) return errorResponse(404, "not_found", "No such route.");
  const answer = errorResponse(405, "method_not_allowed", `This route takes only ${allow}.`);
  answer.headers.set("allow", allow);
  return answer;
});

app.onError((caught) => {
  // Thrown by hono middleware (none of ours throws one today): its response is already built.
  if (caught instanceof HTTPException) return caught.getResponse();
  let error = caught;
  if (objectUnavailable(error)) {
    console.log(JSON.stringify({ level: "warn", event: "object.unavailable", name: error.name }));
    error = new ApiError(
      503,
      "service_busy",
      "The checkout was busy for a moment; try again in a second.",
      1,
    );
  }
  if (error instanceof ApiError) {
    return Response.json(error.toBody(), {
      status: error.status,
      headers: errorHeaders(error.status, error.retryAfter),
    });
  }
  // Unknown errors: log the name only (messages of third-party errors may echo inputs).
  console.log(JSON.stringify({ level: "error", event: "unhandled", name: error.name }));
  return errorResponse(500, "internal", "Something went wrong; try again.");
});
