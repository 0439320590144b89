/**
 * @module
 * Every worker test file ends with no sandbox fault left unspent. The files share one sandbox,
 * one at a time: a fault a file set and never triggered would hit the next file's request
 * (an unscoped `GET /invoice` fault once slowed a later file's reconciler sweep), and the test
 * that set it did not exercise what it says. A file that means to leave a fault untouched
 * clears it itself (`DELETE /sandbox/faults?scope=…`).
 */
import { afterAll, expect } from "vitest";
import { sandbox } from "./helpers.ts";

afterAll(async () => {
  const left = (await sandbox<{ data: unknown[] }>("/sandbox/faults")).body.data;
  // Cleared first, so one file's leftover fails that file only, not the next one too.
  if (left.length) await sandbox("/sandbox/faults", { method: "DELETE" });
  expect(left, "sandbox faults this file set and never spent").toEqual([]);
});
