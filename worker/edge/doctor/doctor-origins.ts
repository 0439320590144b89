/**
 * @module
 * The doctor's checks of `ALLOWED_ORIGINS`. The worker compares a page's `Origin` header with
 * each entry exactly, so an entry that is not an exact origin (scheme, host, optional port,
 * nothing else: `shop.example.com`, `https://shop.example.com/checkout`,
 * `https://Shop.example.com`) matches no page and every embed from it is refused: a failure,
 * naming the entry and the origin to write instead. Empty is a warning, not a failure: a
 * worker used only by servers (merchant API, webhooks) needs no browser origin.
 */
import type { Config } from "../../core/config/config.ts";
import type { DoctorCheck } from "./doctor-report.ts";

/**
 * Why `entry` is not an exact origin, with the origin it should probably be; null when it is
 * one (or `*`, which the worker reads as "any site").
 *
 * @example
 * originProblem("https://shop.example.com/checkout"); // "has a path, query or fragment: write https://shop.example.com"
 * originProblem("https://shop.example.com"); // null
 */
export function originProblem(entry: string): string | null {
  if (entry === "*") return null;
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    const guess = /^[A-Za-z0-9.-]+(:\d+)?$/.test(entry) ? `: write https://${entry}` : "";
    return `is not an origin (no scheme)${guess}`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return "must start with https:// (or http:// for local development)";
  }
  if (url.origin === entry) return null;
  const why =
    url.username || url.password
      ? "has a user name or password"
      : url.pathname !== "/" || url.search || url.hash || entry.endsWith("?") || entry.endsWith("#")
        ? "has a path, query or fragment"
        : "is not written the way browsers send it (lower case, no default port)";
  return `${why}: write ${url.origin}`;
}

/**
 * The failure naming every entry of `ALLOWED_ORIGINS` that is not an exact origin, or null.
 *
 * @example
 * originsFailure({ ALLOWED_ORIGINS: ["shop.example.com"] })?.message;
 * // 'ALLOWED_ORIGINS entry "shop.example.com" is not an origin (no scheme): write https://shop.example.com. …'
 */
export function originsFailure(config: Pick<Config, "ALLOWED_ORIGINS">): DoctorCheck | null {
  const bad = config.ALLOWED_ORIGINS.flatMap((entry) => {
    const problem = originProblem(entry);
    return problem ? [`ALLOWED_ORIGINS entry "${entry.slice(0, 200)}" ${problem}.`] : [];
  });
  if (bad.length === 0) return null;
  return {
    name: "allowed_origins",
    ok: false,
    message: `${bad.join(" ")} The worker compares each page's origin exactly (scheme://host[:port], nothing else), so every embed from that site is refused until this is fixed.`,
  };
}

/**
 * The warning for an empty `ALLOWED_ORIGINS`, or null when origins are set.
 *
 * @example
 * originsWarning({ ...config, ALLOWED_ORIGINS: [] })?.message; // "ALLOWED_ORIGINS is empty: …"
 */
export function originsWarning(config: Pick<Config, "ALLOWED_ORIGINS">): DoctorCheck | null {
  if (config.ALLOWED_ORIGINS.length > 0) return null;
  return {
    name: "allowed_origins",
    ok: true,
    warning: true,
    message:
      "ALLOWED_ORIGINS is empty: no storefront page can use the widget (each embed says the site is not allowed). Set it to your shop's origins, comma-separated, e.g. ALLOWED_ORIGINS=https://shop.example.com,https://www.shop.example.com.",
  };
}
