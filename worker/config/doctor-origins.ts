/**
 * @module
 * The doctor's warning about `ALLOWED_ORIGINS`: empty, no storefront page may call the
 * widget's routes, and every embed shows "this site may not use this checkout" (the console
 * names the origin to add). A warning, not a failure: a worker used only by servers
 * (merchant API, webhooks) needs no browser origin.
 */
import type { Config } from "./config.ts";
import type { DoctorCheck } from "./doctor-report.ts";

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
