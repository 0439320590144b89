/**
 * @module
 * A 2 MB `POST /v1/checkouts` against the worker as `wrangler dev` runs it: every client reads
 * the JSON 413 `payload_too_large` (`edge/http/limits.ts` `limitBody` reads and drops the body,
 * `drain-body.ts`, before it answers). Two clients, ten tries each: one on a raw socket
 * (`node:net`, the request written by hand, the whole answer read until the server closes) and
 * `fetch`. Answered mid-upload, the raw client met a reset connection (or the dev proxy's
 * plain-text 500 "Network connection lost") most of the time; `fetch` now and then.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Stack, startStack } from "./support/stack.ts";

const BODY_BYTES = 2 * 1024 * 1024;
const TRIES = 10;
/** Bytes per write on the raw socket (a browser's upload arrives in pieces too). */
const PIECE = 64 * 1024;
/** The widget routes' body limit (`MAX_WIDGET_BODY`: not imported, the worker's types are workerd's). */
const MAX_WIDGET_BODY = 16 * 1024;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

/** What one client read: the status, the content type and the body, or how it failed. */
interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** A JSON-ish 2 MB body (its size, not its content, is what is refused). */
const big = () => Buffer.alloc(BODY_BYTES, 0x20).fill("{", 0, 1);

/**
 * POSTs `body` on a socket of its own, written by hand (`Connection: close`), and reads every
 * byte the server sends until it closes; the answer is parsed from those bytes. A reset or an
 * error before a complete answer rejects.
 */
function rawPost(port: number, path: string, body: Buffer, ip: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    const received: Buffer[] = [];
    let failed: Error | null = null;
    socket.on("data", (chunk) => received.push(chunk));
    // An error after the whole answer arrived (EPIPE on a write the server no longer reads)
    // does not matter; one before it does: it is judged once the socket closes.
    socket.on("error", (error) => {
      failed = error;
    });
    socket.on("close", () => {
      const text = Buffer.concat(received).toString("utf8");
      const answer = parseAnswer(text);
      if (answer) resolve(answer);
      else reject(failed ?? new Error(`incomplete answer: ${JSON.stringify(text.slice(0, 200))}`));
    });
    socket.on("connect", async () => {
      const head = [
        `POST ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        "Content-Type: application/json",
        `Content-Length: ${body.byteLength}`,
        `CF-Connecting-IP: ${ip}`,
        "Connection: close",
        "",
        "",
      ].join("\r\n");
      socket.write(head);
      for (let at = 0; at < body.byteLength && !socket.destroyed; at += PIECE) {
        const more = socket.write(body.subarray(at, at + PIECE));
        if (!more) await new Promise((r) => socket.once("drain", r).once("close", r));
      }
    });
  });
}

/** The status, content type and body of a complete HTTP/1.1 answer (null when incomplete). */
function parseAnswer(text: string): Answer | null {
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine = "", ...lines] = text.slice(0, end).split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) return null;
  const headers = new Map(
    lines.map((l) => [
      l.slice(0, l.indexOf(":")).trim().toLowerCase(),
      l.slice(l.indexOf(":") + 1).trim(),
    ]),
  );
  let body = text.slice(end + 4);
  if (headers.get("transfer-encoding")?.toLowerCase() === "chunked") {
    const decoded = dechunk(body);
    if (decoded === null) return null;
    body = decoded;
  } else if (headers.has("content-length")) {
    const length = Number(headers.get("content-length"));
    if (Buffer.byteLength(body) < length) return null;
  }
  return { status, contentType: headers.get("content-type") ?? "", body };
}

/** A chunked body decoded, or null when its last chunk has not arrived. */
function dechunk(raw: string): string | null {
  let out = "";
  let rest = raw;
  for (;;) {
    const line = rest.indexOf("\r\n");
    if (line < 0) return null;
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (!Number.isInteger(size)) return null;
    if (size === 0) return out;
    if (rest.length < line + 2 + size) return null;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

async function fetchPost(url: string, body: Buffer, ip: string): Promise<Answer> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": ip },
    body: new Uint8Array(body),
  });
  return {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    body: await res.text(),
  };
}

/** The answer every client must read. */
const TOO_LARGE = {
  status: 413,
  json: true,
  error: {
    code: "payload_too_large",
    message: `The request body is larger than ${MAX_WIDGET_BODY} bytes.`,
  },
};

/** An answer (or a client's failure) in the shape `TOO_LARGE` has, to compare all ten at once. */
async function judged(answer: Promise<Answer>) {
  try {
    const { status, contentType, body } = await answer;
    const parsed = contentType.includes("application/json")
      ? (JSON.parse(body) as { error?: unknown })
      : null;
    return { status, json: parsed !== null, error: parsed?.error ?? body.slice(0, 120) };
  } catch (error) {
    return { failed: String(error) };
  }
}

it(`a raw socket client reads the JSON 413 for a 2 MB POST /v1/checkouts, ${TRIES} of ${TRIES}`, async () => {
  const body = big();
  const answers = [];
  for (let i = 0; i < TRIES; i += 1)
    answers.push(
      await judged(rawPost(stack.ports.worker, "/v1/checkouts", body, `10.41.0.${i + 1}`)),
    );
  expect(answers).toEqual(Array(TRIES).fill(TOO_LARGE));
});

it(`fetch reads the JSON 413 for a 2 MB POST /v1/checkouts, ${TRIES} of ${TRIES}`, async () => {
  const body = big();
  const answers = [];
  for (let i = 0; i < TRIES; i += 1)
    answers.push(
      await judged(fetchPost(`${stack.urls.workerUrl}/v1/checkouts`, body, `10.42.0.${i + 1}`)),
    );
  expect(answers).toEqual(Array(TRIES).fill(TOO_LARGE));
});
