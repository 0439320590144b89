/**
 * @module
 * The worker's logger for a configuration: enabled by `DEBUG_LOG`, and redacting every secret
 * the configuration holds. Built here only, so the route layer and the Durable Objects can
 * never disagree on which values must not reach a log line.
 */
import { createLogger, type Logger } from "../../lib/log.ts";
import type { Config } from "./config.ts";

/** One logger per parsed configuration (a route's lives as long as the isolate). */
const loggers = new WeakMap<Config, Logger>();

/**
 * The logger of `config`, with its API key, signing keys and merchant token redacted.
 *
 * @example
 * configLogger(config).warn("order_id.collision", { orderId });
 */
export function configLogger(config: Config): Logger {
  let log = loggers.get(config);
  if (!log) {
    log = createLogger({
      enabled: config.DEBUG_LOG,
      secrets: [
        config.API_KEY,
        config.WEBHOOK_SIGNING_KEY,
        config.CHECKOUT_SIGNING_SECRET,
        config.MERCHANT_API_TOKEN,
        ...(config.MERCHANT_WEBHOOK_SECRET ? [config.MERCHANT_WEBHOOK_SECRET] : []),
      ],
    });
    loggers.set(config, log);
  }
  return log;
}
