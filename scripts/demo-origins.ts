/**
 * @module
 * Extra storefront origins for the demo worker's `ALLOWED_ORIGINS`, so the demo widget can be
 * embedded in another page (a second dev server, a tunnel, a CodePen-like sandbox): from
 * `npm run demo -- --allow-origin <origin>` (repeatable) and `DEMO_ALLOWED_ORIGINS`
 * (comma-separated). The demo passes the worker its values with `--var`, which beats
 * `.dev.vars`, so editing `.dev.vars` cannot add an origin to the demo: this is the way.
 *
 * Invariant: each value is an origin (`scheme://host[:port]`, no path); anything else is an
 * error naming the value, never silently dropped.
 */

/**
 * The extra origins asked for, deduplicated, in order.
 *
 * @example
 * demoOrigins(["--allow-origin", "https://shop.test"], { DEMO_ALLOWED_ORIGINS: "http://localhost:3000" });
 * // ["https://shop.test", "http://localhost:3000"]
 */
export function demoOrigins(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): string[] {
  const asked: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === "--allow-origin") {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith("--"))
        throw new Error(
          "--allow-origin needs an origin, e.g. --allow-origin http://localhost:3000",
        );
      asked.push(value);
    } else if (arg.startsWith("--allow-origin=")) asked.push(arg.slice("--allow-origin=".length));
  });
  for (const value of (env.DEMO_ALLOWED_ORIGINS ?? "").split(","))
    if (value.trim()) asked.push(value);
  return [...new Set(asked.map(asOrigin))];
}

function asOrigin(raw: string): string {
  const value = raw.trim().replace(/\/+$/, "");
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // Reported below.
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.origin !== value) {
    throw new Error(
      `${JSON.stringify(raw)} is not an origin: use scheme://host[:port], e.g. http://localhost:3000`,
    );
  }
  return value;
}
