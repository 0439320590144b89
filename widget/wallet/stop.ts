/**
 * @module
 * Why the wallet flow stopped, in the shopper's words: a message key with its values, whether
 * the same wallet may simply try again, and what the worker sent along (a snapshot to apply, a
 * `Retry-After`). Every step of the flow throws one of these and nothing else, so the view has
 * one place that turns a failure into a message with a way back.
 */
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import type { TextKey } from "../i18n/index.ts";

/**
 * A stop of the wallet flow. `key` null: a worker code the checkout words itself (`code`).
 *
 * @example
 * throw new Stop("walletDeclined");
 * throw new Stop(null, {}, "not_found");
 */
export class Stop {
  readonly key: TextKey | null;
  readonly values: Record<string, string>;
  readonly code: string;
  /** Seconds before trying again makes sense (the worker's `Retry-After`). */
  readonly wait: number;
  /** A snapshot the refusal carried (the order paid meanwhile, the offer gone). */
  readonly snapshot: CheckoutSnapshot | undefined;
  constructor(
    key: TextKey | null,
    values: Record<string, string> = {},
    code = "",
    wait = 0,
    snapshot?: CheckoutSnapshot,
  ) {
    this.key = key;
    this.values = values;
    this.code = code;
    this.wait = wait;
    this.snapshot = snapshot;
  }
}
