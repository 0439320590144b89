/**
 * @module
 * Puts every upstream client of this isolate behind the deployment's budget
 * (`core/config/upstream.ts` `installUpstreamGates`). Imported once by the worker's entry, which is
 * where the `BUDGETS` binding exists; importing it twice changes nothing.
 */
import { env } from "cloudflare:workers";
import { accountKey } from "../account/account-key.ts";
import type { CoreEnv } from "../config/core-env.ts";
import { type GateFactory, installUpstreamGates } from "../config/upstream.ts";
import { budgetStub } from "../objects/stubs.ts";
import { budgetGate } from "./gate.ts";

/**
 * The deployment's gates: each call asks the account's budget object for its lane and client.
 *
 * @example
 * installUpstreamGates(deploymentGates); // what importing this module does (tests restore it)
 */
export const deploymentGates: GateFactory = (config, priority, client) => {
  const key = accountKey(config);
  const stub = () => budgetStub(env as CoreEnv, key);
  return budgetGate(stub, key, priority, config.UPSTREAM_MAX_RPS, undefined, client);
};

installUpstreamGates(deploymentGates);
