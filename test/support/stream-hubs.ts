/**
 * @module
 * The stream hub that holds a checkout's streams, as the worker tests reach it: the same name
 * the worker computes (`worker/core/streams/hub-name.ts`), so a test never picks a hub of its own.
 */
import { env } from "cloudflare:workers";
import { streamHubName } from "../../worker/core/streams/hub-name.ts";

/**
 * The stub of the hub that holds the streams of `checkoutId` (an order's or a top-up's).
 *
 * @example
 * await runInDurableObject(hubOf(id), (hub: StreamHubObject) => hub.streams(key));
 */
export const hubOf = (checkoutId: string) =>
  env.STREAM_HUBS.get(env.STREAM_HUBS.idFromName(streamHubName(checkoutId)));
