/**
 * Project types for `cloudflare:workers` (`env`, `exports`): the worker's bindings and its
 * main module, so tests and code get typed stubs.
 */
import type { Env as WorkerEnv } from "./edge/env.ts";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {}
    interface GlobalProps {
      mainModule: typeof import("./index.ts");
      durableNamespaces:
        | "OrderObject"
        | "DepositObject"
        | "PayoutObject"
        | "CatalogObject"
        | "PaymentModeObject";
    }
  }
}
