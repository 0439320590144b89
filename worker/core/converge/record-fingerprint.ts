/**
 * @module
 * The fingerprint of an upstream record (a read, a webhook's signed record or a list page's
 * item, all parsed with the same schemas): 128 bits of Keccak-256 over the record's canonical
 * JSON, as 32 lowercase hex characters. Objects store it (`upstream_objects.seen`), register it
 * with the reconciler and the reconciler keeps it (`tracked.fingerprint`): a listed record is
 * handed to its object only when its fingerprint differs from the newest one the object has.
 *
 * Invariants:
 * - equal records always give equal fingerprints, whatever the order of their keys (the JSON is
 *   canonical: every object's keys sorted, `undefined` members dropped as `JSON.stringify` does);
 * - any changed field gives another fingerprint except with probability 2^-128 (a cryptographic
 *   hash: no service-side text, such as a description, can be chosen to collide);
 * - fixed length (32 characters) whatever the record's size: it was the record's whole JSON,
 *   1–2 KB per followed object in SQLite, in the reconciler and in the Follower's memory.
 *   A stored value of another length (an older deployment's JSON) never equals a new one, so it
 *   costs one hand-over of that record at most, then is replaced.
 *
 * Why Keccak: it is synchronous (the fingerprint is taken inside the write that admits a read,
 * where no await may open the object's input gate; `crypto.subtle.digest` is async) and it is
 * already in the worker's bundle (`lib/address-codecs/eip55.ts`, tested against `node:crypto`),
 * so it adds no dependency and no bytes.
 */
import { keccak256 } from "../../lib/address-codecs/eip55.ts";

/** Length of a fingerprint in hex characters (128 bits). */
export const FINGERPRINT_HEX_LENGTH = 32;

const encoder = new TextEncoder();

/** `JSON.stringify` replacer that rebuilds every plain object with its keys sorted. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const entries = Object.entries(value as Record<string, unknown>);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

/**
 * The record's canonical JSON: keys sorted at every depth.
 *
 * @example
 * canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }); // '{"a":[{"c":3,"d":2}],"b":1}'
 */
export function canonicalJson(record: unknown): string {
  const text = JSON.stringify(record, sortedKeys);
  if (text === undefined) throw new TypeError("a record fingerprint needs a JSON value");
  return text;
}

/**
 * The fingerprint of an upstream record: 32 hex characters (see the module).
 *
 * @example
 * recordFingerprint(invoice) === recordFingerprint(listed.record); // the same record
 */
export function recordFingerprint(record: unknown): string {
  const digest = keccak256(encoder.encode(canonicalJson(record)));
  let hex = "";
  for (let i = 0; i < FINGERPRINT_HEX_LENGTH / 2; i++) {
    hex += digest[i]!.toString(16).padStart(2, "0");
  }
  return hex;
}
