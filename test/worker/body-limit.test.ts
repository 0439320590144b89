/**
 * Bodies over a route's limit (`edge/http/limits.ts` `limitBody`): the 413 `payload_too_large`
 * is answered after the body was read and dropped (up to a cap in bytes and time), so the client
 * is done sending when the answer comes and reads it: answered mid-upload, a real connection
 * was often reset (or a proxy answered a plain-text 500) before the client saw the 413.
 */
import { describe, expect, it } from "vitest";
import { DRAIN_MAX_BYTES, DRAIN_MAX_MS } from "../../worker/edge/http/drain-body.ts";
import { MAX_WIDGET_BODY } from "../../worker/edge/http/limits.ts";
import { STOREFRONT, uniqueIp, worker } from "./helpers.ts";

const CHUNK = 64 * 1024;

/** A body of `total` bytes sent in chunks, counting what the worker pulled; `stall` never ends. */
function upload(total: number, stall = false) {
  const seen = { pulled: 0 };
  const chunk = new Uint8Array(CHUNK).fill(120);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled >= total) {
        if (!stall) controller.close();
        return;
      }
      const next = chunk.subarray(0, Math.min(CHUNK, total - seen.pulled));
      seen.pulled += next.byteLength;
      controller.enqueue(next);
    },
  });
  return { body, seen };
}

function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return worker(path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: STOREFRONT, ...headers },
    body,
    // @ts-expect-error: workerd's RequestInit accepts duplex for streaming bodies
    duplex: "half",
  });
}

async function expectTooLarge(res: Response) {
  expect(res.status).toBe(413);
  expect(res.headers.get("content-type")).toContain("application/json");
  const { error } = (await res.json()) as { error: { code: string; message: string } };
  expect(error).toEqual({
    code: "payload_too_large",
    message: `The request body is larger than ${MAX_WIDGET_BODY} bytes.`,
  });
}

describe("a body over the limit: 413 payload_too_large, after the client is done sending", () => {
  it("a 2 MB streamed body is read to its end before the JSON 413 is answered", async () => {
    const total = 2 * 1024 * 1024;
    const { body, seen } = upload(total);
    const res = await post("/v1/checkouts", body, { "cf-connecting-ip": uniqueIp() });
    expect(seen.pulled).toBe(total);
    await expectTooLarge(res);
    // A body within the limit still reaches the route, streamed: 100 bytes of "x" are no JSON.
    const small = upload(100);
    const ok = await post("/v1/checkouts", small.body, { "cf-connecting-ip": uniqueIp() });
    expect(ok.status).toBe(400);
    expect(((await ok.json()) as { error: { code: string } }).error.code).toBe("bad_request");
  });

  it("a 2 MB body with its content-length (refused by the length alone) is read too", async () => {
    const total = 2 * 1024 * 1024;
    const { body, seen } = upload(total);
    const res = await post("/v1/checkouts", body, {
      "cf-connecting-ip": uniqueIp(),
      "content-length": String(total),
    });
    expect(seen.pulled).toBe(total);
    await expectTooLarge(res);
  });

  it("reads at most DRAIN_MAX_BYTES of it, and waits at most DRAIN_MAX_MS for a stalled rest", async () => {
    const huge = upload(DRAIN_MAX_BYTES * 2);
    await expectTooLarge(
      await post("/v1/checkouts", huge.body, { "cf-connecting-ip": uniqueIp() }),
    );
    expect(huge.seen.pulled).toBeGreaterThanOrEqual(DRAIN_MAX_BYTES);
    expect(huge.seen.pulled).toBeLessThanOrEqual(DRAIN_MAX_BYTES + 4 * CHUNK);
    // Four chunks, then nothing more and never the end: all four read, then answered once the
    // wait is over.
    const stalled = upload(4 * CHUNK, true);
    const started = Date.now();
    await expectTooLarge(
      await post("/v1/checkouts", stalled.body, { "cf-connecting-ip": uniqueIp() }),
    );
    expect(stalled.seen.pulled).toBe(4 * CHUNK);
    expect(Date.now() - started).toBeLessThan(DRAIN_MAX_MS + 5_000);
  });
});
