/**
 * The server package's `verifyNotification` against the worker's signer
 * (`worker/core/events/outbox.ts`): a real signature verifies; a changed body, signature or
 * timestamp, a stale or future timestamp, a wrong secret and every malformed header are refused
 * with their own code.
 */
import { describe, expect, it } from "vitest";
import {
  NotificationVerificationError,
  verifyNotification,
} from "../../packages/server/src/index.ts";
import { notification, signNotification } from "../../worker/core/events/outbox.ts";

const SECRET = "unit-test-merchant-webhook-secret";
const NOW = 1_767_225_600_000;
const t = NOW / 1000;
const event = notification("order.paid", "2026-01-01T00:00:00.000Z", {
  invoiceNumber: "1001",
  amountPaid: "49.90",
});
const body = JSON.stringify(event);

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(NotificationVerificationError);
  return (error as NotificationVerificationError).code;
}

describe("verifyNotification", () => {
  it("returns the typed event for the worker's own signature (string or bytes)", async () => {
    const header = await signNotification(body, SECRET, t);
    expect(await verifyNotification(body, header, SECRET, { now: NOW })).toEqual(event);
    const bytes = new TextEncoder().encode(body);
    expect((await verifyNotification(bytes, header, SECRET, { now: NOW })).id).toBe(event.id);
  });

  it("verifies the bytes as received, non-ASCII included", async () => {
    const text = JSON.stringify({ ...event, data: { description: "Tee – grün ☕" } });
    const header = await signNotification(text, SECRET, t);
    const verified = await verifyNotification(new TextEncoder().encode(text), header, SECRET, {
      now: NOW,
    });
    expect(verified.data.description).toBe("Tee – grün ☕");
  });

  it("refuses a changed body, a changed signature, a moved timestamp and a wrong secret", async () => {
    const header = await signNotification(body, SECRET, t);
    const tampered = body.replace("49.90", "99.90");
    expect(await refusal(verifyNotification(tampered, header, SECRET, { now: NOW }))).toBe(
      "signature_mismatch",
    );
    const lastHex = header.at(-1) === "0" ? "1" : "0";
    const flipped = `${header.slice(0, -1)}${lastHex}`;
    expect(await refusal(verifyNotification(body, flipped, SECRET, { now: NOW }))).toBe(
      "signature_mismatch",
    );
    const moved = header.replace(`t=${t}`, `t=${t + 1}`);
    expect(await refusal(verifyNotification(body, moved, SECRET, { now: NOW }))).toBe(
      "signature_mismatch",
    );
    expect(await refusal(verifyNotification(body, header, "another-secret", { now: NOW }))).toBe(
      "signature_mismatch",
    );
  });

  it("refuses a timestamp more than 5 minutes away (past or future), unless the tolerance allows it", async () => {
    const old = await signNotification(body, SECRET, t - 301);
    expect(await refusal(verifyNotification(body, old, SECRET, { now: NOW }))).toBe(
      "timestamp_out_of_tolerance",
    );
    const future = await signNotification(body, SECRET, t + 301);
    expect(await refusal(verifyNotification(body, future, SECRET, { now: NOW }))).toBe(
      "timestamp_out_of_tolerance",
    );
    const edge = await signNotification(body, SECRET, t - 300);
    expect((await verifyNotification(body, edge, SECRET, { now: NOW })).id).toBe(event.id);
    const hourOld = await signNotification(body, SECRET, t - 3600);
    const options = { now: NOW, toleranceSeconds: 3600 };
    expect((await verifyNotification(body, hourOld, SECRET, options)).id).toBe(event.id);
    expect(
      await refusal(verifyNotification(body, edge, SECRET, { now: NOW, toleranceSeconds: 10 })),
    ).toBe("timestamp_out_of_tolerance");
  });

  it("accepts a header with several v1 signatures when one matches (secret rotation), and unknown schemes beside it", async () => {
    const good = await signNotification(body, SECRET, t);
    const other = await signNotification(body, "the-previous-secret", t);
    const v1 = (header: string) => header.split(",v1=")[1];
    const header = `t=${t},v1=${v1(other)},v2=abc,v1=${v1(good)}`;
    expect((await verifyNotification(body, header, SECRET, { now: NOW })).id).toBe(event.id);
  });

  it.each<[string, string | undefined, string]>([
    ["no header", undefined, "signature_missing"],
    ["an empty header", "  ", "signature_missing"],
    ["no t", `v1=${"a".repeat(64)}`, "signature_malformed"],
    ["no v1", `t=${t}`, "signature_malformed"],
    ["a non-numeric t", `t=soon,v1=${"a".repeat(64)}`, "signature_malformed"],
    ["two t", `t=${t},t=${t},v1=${"a".repeat(64)}`, "signature_malformed"],
    ["a short v1", `t=${t},v1=abcd`, "signature_malformed"],
    ["a non-hex v1", `t=${t},v1=${"z".repeat(64)}`, "signature_malformed"],
    ["a part without =", `t=${t},v1`, "signature_malformed"],
    ["a header of 2 kB", `t=${t},${`v1=${"a".repeat(64)},`.repeat(30)}`, "signature_malformed"],
  ])("refuses %s", async (_what, header, code) => {
    expect(await refusal(verifyNotification(body, header, SECRET, { now: NOW }))).toBe(code);
  });

  it("refuses a correctly signed body that is not a notification", async () => {
    for (const text of [
      "not json",
      "[]",
      '{"id":"evt_1","type":"order.paid"}',
      '{"id":"x","type":"a","createdAt":"b","data":{}}',
    ]) {
      const header = await signNotification(text, SECRET, t);
      expect(await refusal(verifyNotification(text, header, SECRET, { now: NOW }))).toBe(
        "body_invalid",
      );
    }
  });

  it("takes the header as Node's IncomingMessage gives it: a one-element array verifies; several, none or a non-string is NotificationVerificationError", async () => {
    const header = await signNotification(body, SECRET, t);
    expect(await verifyNotification(body, [header], SECRET, { now: NOW })).toEqual(event);
    // Two headers have no single meaning: neither is picked.
    expect(await refusal(verifyNotification(body, [header, header], SECRET, { now: NOW }))).toBe(
      "signature_malformed",
    );
    expect(await refusal(verifyNotification(body, [], SECRET, { now: NOW }))).toBe(
      "signature_missing",
    );
    // What plain JavaScript may pass: never a TypeError, always the one documented error.
    for (const odd of [42, { t }, [42], true]) {
      expect(
        await refusal(verifyNotification(body, odd as unknown as string, SECRET, { now: NOW })),
      ).toBe("signature_malformed");
    }
  });

  it("refuses a negative tolerance and an empty secret as programming errors", async () => {
    const header = await signNotification(body, SECRET, t);
    await expect(
      verifyNotification(body, header, SECRET, { now: NOW, toleranceSeconds: -1 }),
    ).rejects.toThrow(TypeError);
    await expect(verifyNotification(body, header, "", { now: NOW })).rejects.toThrow(TypeError);
  });
});
