/**
 * @module
 * `PaymentModeObject`: the one record of a deployment's payment mode, per service + account
 * (named by `modeKey`). It asks the service once — concurrent askers share the probe — and
 * keeps a settled answer in its storage, so isolates and restarts never ask again; an
 * unsettled one (no usable answer) is not kept. `record` overwrites it when a real lock shows
 * the service has no such operation.
 */
import { DurableObject } from "cloudflare:workers";
import { parseConfig } from "./config.ts";
import type { Env } from "./env.ts";
import type { ModeDecision } from "./mode-decision.ts";
import { askService } from "./payment-mode.ts";
import type { PaymentModeRpc } from "./payment-mode-rpc.ts";

const KEY = "decision";

export class PaymentModeObject extends DurableObject<Env> implements PaymentModeRpc {
  #asking: Promise<ModeDecision> | null = null;

  /**
   * The kept decision, or the service's answer now.
   *
   * @example
   * const { mode } = await env.PAYMENT_MODES.get(id).decide();
   */
  async decide(): Promise<ModeDecision> {
    const kept = this.ctx.storage.kv.get<ModeDecision>(KEY);
    if (kept) return kept;
    this.#asking ??= this.#ask().finally(() => {
      this.#asking = null;
    });
    return this.#asking;
  }

  async #ask(): Promise<ModeDecision> {
    const parsed = parseConfig(this.env);
    if (!parsed.ok) {
      return { mode: "hosted", reason: "configuration is invalid", settled: false };
    }
    const decision = await askService(parsed.config);
    if (decision.settled) this.ctx.storage.kv.put(KEY, decision);
    return decision;
  }

  /** Keeps `decision` (settled) in place of any earlier one. */
  async record(decision: ModeDecision): Promise<void> {
    this.ctx.storage.kv.put(KEY, decision);
  }
}
