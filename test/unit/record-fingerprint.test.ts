/**
 * The record fingerprint (`worker/core/converge/record-fingerprint.ts`): fixed length, equal
 * for equal records whatever their key order, different after any field changes.
 */
import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  FINGERPRINT_HEX_LENGTH,
  recordFingerprint,
} from "../../worker/core/converge/record-fingerprint.ts";

const invoice = {
  id: "inv-1",
  status: "partially_paid",
  amount: "32.00",
  cryptoAmountReceived: "5",
  cryptoCurrencyCode: "USDT",
  description: "x".repeat(1_500),
  payments: [{ txid: "ab", amount: "5", confirmations: 2 }],
  expiresAt: "2026-11-26T20:00:00.000Z",
  previous: null,
};

/** Every leaf path of a record, and the record with that leaf changed. */
function eachLeafChanged(record: unknown, path: string[] = []): [string, unknown][] {
  if (record !== null && typeof record === "object") {
    return Object.entries(record).flatMap(([k, v]) =>
      eachLeafChanged(v, [...path, k]).map(([p, changed]): [string, unknown] => [
        p,
        Array.isArray(record)
          ? record.map((x, i) => (String(i) === k ? changed : x))
          : { ...record, [k]: changed },
      ]),
    );
  }
  const changed = record === null ? 0 : typeof record === "string" ? `${record}.` : `${record}1`;
  return [[path.join("."), changed]];
}

describe("record fingerprint", () => {
  it("is 32 hex characters whatever the record's size", () => {
    const print = recordFingerprint(invoice);
    expect(print).toMatch(/^[0-9a-f]{32}$/);
    expect(print).toHaveLength(FINGERPRINT_HEX_LENGTH);
    expect(recordFingerprint({})).toHaveLength(FINGERPRINT_HEX_LENGTH);
  });

  it("is equal for an equal record, whatever the order of its keys at any depth", () => {
    const reordered = {
      previous: null,
      payments: [{ confirmations: 2, amount: "5", txid: "ab" }],
      expiresAt: invoice.expiresAt,
      description: invoice.description,
      cryptoCurrencyCode: "USDT",
      cryptoAmountReceived: "5",
      amount: "32.00",
      status: "partially_paid",
      id: "inv-1",
    };
    expect(recordFingerprint(reordered)).toBe(recordFingerprint(invoice));
    expect(recordFingerprint(structuredClone(invoice))).toBe(recordFingerprint(invoice));
    // An absent member and one set to undefined are the same record (as in JSON).
    expect(recordFingerprint({ ...invoice, extra: undefined })).toBe(recordFingerprint(invoice));
  });

  it("differs when any field changes, is added or removed, or array order changes", () => {
    const original = recordFingerprint(invoice);
    const changes = eachLeafChanged(invoice);
    expect(changes.length).toBeGreaterThanOrEqual(10);
    for (const [path, changed] of changes) {
      expect(recordFingerprint(changed), path).not.toBe(original);
    }
    expect(recordFingerprint({ ...invoice, refunded: "0" })).not.toBe(original);
    const { previous: _dropped, ...without } = invoice;
    expect(recordFingerprint(without)).not.toBe(original);
    expect(recordFingerprint({ list: [1, 2] })).not.toBe(recordFingerprint({ list: [2, 1] }));
    // A number and its string are different values.
    expect(recordFingerprint({ n: 1 })).not.toBe(recordFingerprint({ n: "1" }));
  });

  it("never equals a stored value of an older deployment (the record's whole JSON)", () => {
    expect(recordFingerprint(invoice)).not.toBe(JSON.stringify(invoice));
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });

  it("gives 20,000 records that differ in one small field 20,000 fingerprints", () => {
    const prints = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      prints.add(recordFingerprint({ ...invoice, cryptoAmountReceived: `5.${i}` }));
    }
    expect(prints.size).toBe(20_000);
  });
});
