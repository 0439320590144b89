/**
 * @module
 * `PaymentModeObject`: the one record of a deployment's payment mode, per service + account
 * (named by `modeKey`). It asks the service — concurrent askers share the probe — and keeps a
 * settled answer in its storage, so isolates and restarts do not ask again for
 * `MODE_RECHECK_MS` (1 h); then the next asker's question goes to the service once more, so a
 * mistaken or outdated answer does not last for good. An unsettled answer (no usable answer)
 * is not stored: the record keeps serving the last settled decision, if any, and asks again no
 * sooner than `MODE_RETRY_MS` (1 min). `record` overwrites the decision when a real lock shows
 * the service has no such operation. Times are the asker's clock (tests move it).
 */
import { DurableObject } from "cloudflare:workers";
import { parseConfig } from "./config.ts";
import type { CoreEnv } from "./core-env.ts";
import { MODE_RECHECK_MS, MODE_RETRY_MS, type ModeDecision } from "./mode-decision.ts";
import { askService } from "./payment-mode.ts";
import type { PaymentModeRpc } from "./payment-mode-rpc.ts";

const KEY = "decision";

export class PaymentModeObject extends DurableObject<CoreEnv> implements PaymentModeRpc {
  #asking: Promise<ModeDecision> | null = null;
  /** The last unusable answer and until when it stands (memory only). */
  #unsettled: { decision: ModeDecision; until: number } | null = null;

  /**
   * The kept decision while it holds, or the service's answer now.
   *
   * @example
   * const { mode } = await env.PAYMENT_MODES.get(id).decide(Date.now());
   */
  async decide(now: number): Promise<ModeDecision> {
    const kept = this.ctx.storage.kv.get<ModeDecision>(KEY);
    if (kept && (kept.decidedAt ?? 0) + MODE_RECHECK_MS > now) return kept;
    const unsettled = this.#unsettled;
    if (unsettled && unsettled.until > now) return kept ?? unsettled.decision;
    this.#asking ??= this.#ask(now).finally(() => {
      this.#asking = null;
    });
    const decision = await this.#asking;
    // No usable answer: the last settled decision stands until the service answers.
    return decision.settled ? decision : (kept ?? decision);
  }

  async #ask(now: number): Promise<ModeDecision> {
    const parsed = parseConfig(this.env);
    if (!parsed.ok) {
      return { mode: "hosted", reason: "configuration is invalid", settled: false };
    }
    const decision = await askService(parsed.config);
    if (decision.settled) {
      const stamped = { ...decision, decidedAt: now };
      this.ctx.storage.kv.put(KEY, stamped);
      this.#unsettled = null;
      return stamped;
    }
    this.#unsettled = { decision, until: now + MODE_RETRY_MS };
    return decision;
  }

  /** Keeps `decision` (settled, stamped with `decidedAt`) in place of any earlier one. */
  async record(decision: ModeDecision): Promise<void> {
    this.ctx.storage.kv.put(KEY, decision);
  }
}
