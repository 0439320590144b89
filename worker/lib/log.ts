/**
 * @module
 * Structured debug log lines (`DEBUG_LOG=true`), one JSON object per line.
 *
 * Invariant: callers pass facts (ids, statuses, codes), never request bodies or headers; as a
 * second guard, any string value equal to a configured secret is replaced before printing.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** A logger bound to one request or object. */
export interface Logger {
  debug(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
}

/**
 * Creates a logger. `debug` lines print only when enabled; `warn` lines always print.
 *
 * @example
 * const log = createLogger({ enabled: true, secrets: [apiKey] });
 * log.debug("invoice.created", { orderId: "cc-1001" });
 */
export function createLogger(options: { enabled: boolean; secrets: readonly string[] }): Logger {
  const secrets = options.secrets.filter((s) => s.length >= 4);
  const scrub = (value: unknown) => {
    if (typeof value !== "string") return value;
    let out = value;
    for (const secret of secrets) out = out.split(secret).join("[redacted]");
    return out;
  };
  const print = (level: string, event: string, fields: LogFields = {}) => {
    const line: Record<string, unknown> = { level, event, at: new Date().toISOString() };
    for (const [key, value] of Object.entries(fields)) line[key] = scrub(value);
    console.log(JSON.stringify(line));
  };
  return {
    debug: (event, fields) => {
      if (options.enabled) print("debug", event, fields);
    },
    warn: (event, fields) => print("warn", event, fields),
  };
}
