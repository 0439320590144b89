/**
 * @module
 * The stream route's one step (`GET /v1/checkouts/:id/events`, `GET /v1/deposits/:id/events`):
 * hand the request to the checkout's stream hub (`hub-name.ts`) with the watched object's key,
 * and answer what the hub answers (its stream, 204, 404 or 503).
 */
import type { CoreEnv } from "../config/core-env.ts";
import { streamHubStub } from "../objects/stubs.ts";
import { streamHubName } from "./hub-name.ts";
import { STREAM_HUB_HEADER, STREAM_TARGET_HEADER } from "./stream-hub-object.ts";
import type { WatchedKind } from "./stream-hub-rpc.ts";

/**
 * Streams `checkoutId`'s events through its hub; `objectId` is its object's id (the stub's).
 *
 * @example
 * const stub = orderStubFromUrl(env, id);
 * return streamThroughHub(env, c.req.raw, id, "order", stub.id);
 */
export async function streamThroughHub(
  env: CoreEnv,
  request: Request,
  checkoutId: string,
  kind: WatchedKind,
  objectId: DurableObjectId,
): Promise<Response> {
  const name = streamHubName(checkoutId);
  const headers = new Headers(request.headers);
  headers.set(STREAM_TARGET_HEADER, `${kind}:${objectId.toString()}`);
  headers.set(STREAM_HUB_HEADER, name);
  const res = await streamHubStub(env, name).fetch(new Request(request.url, { headers }));
  // Responses from a stub have immutable headers; copy so CORS can add its own.
  return new Response(res.body, res);
}
