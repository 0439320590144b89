/**
 * @module
 * What the doctor answers (`GET /v1/doctor`, `npm run doctor`): its report and the report's
 * lines, as plain types, so each check's module can build a line without importing the doctor.
 */
import type { ModeDecision } from "../../core/config/mode-decision.ts";

/** One line of the report. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** Worth fixing, but not a failure (`ok` stays true). */
  warning?: boolean;
  message: string;
}

/** The doctor's report. */
export interface DoctorReport {
  ok: boolean;
  environment: "sandbox" | "production";
  baseUrl: string;
  /** The mode shoppers get (`in-page` / `hosted`) and why. */
  paymentMode: { mode: ModeDecision["mode"]; reason: string };
  /** The deployment's upstream budget (`UPSTREAM_MAX_RPS`): calls a second, and what it means. */
  upstreamBudget: { maxCallsPerSecond: number; message: string };
  checks: DoctorCheck[];
}
