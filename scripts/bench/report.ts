/**
 * @module
 * How `npm run bench` reports: percentiles, one printed row per figure (beside its floor and
 * the ratio when it has one), and the figures kept for `--json`.
 */

/** The keys `npm run bench -- --json FILE` writes (numbers; NaN when not measured → null). */
export const FIGURE_KEYS = [
  "widget_initial_gzip_bytes",
  "checkout_create_added_p50_ms",
  "floor_do_write_p50_ms",
  "currencies_1000_wall_ms",
  "floor_json_1000_wall_ms",
  "fanout_1000_p99_ms",
  "floor_fanout_1000_p99_ms",
  "load_1000_checkouts_webhook_sse_p99_ms",
  "lost_events",
  "workerd_rss_mb_per_1000_watchers",
  "orders_list_page_p50_ms",
  "orders_list_page_p99_ms",
  "cpu_ms_per_webhook",
] as const;

export type FigureKey = (typeof FIGURE_KEYS)[number];

/** Figures measured so far (extra keys allowed: they are printed into the JSON too). */
export const figures: Record<string, number> = {};

/**
 * The p-th percentile of an ascending list (nearest rank), NaN when empty.
 *
 * @example
 * pct([1, 2, 3, 4], 50) // 3
 */
export function pct(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Ascending copy. */
export const sorted = (list: readonly number[]) => [...list].sort((a, b) => a - b);

export const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : "—");
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A plain row: what, figure, note. */
export function row(what: string, figure: string, note = ""): void {
  console.log(`${what.padEnd(62)} ${figure.padEnd(24)} ${note}`);
}

/**
 * A row with its floor and the ratio, checked against `target` (a ratio), e.g.
 * `fan-out p99   180.0 ms   floor 150.0 ms   1.20×  (target ≤ 1.2×)`.
 */
export function ratioRow(what: string, value: number, floor: number, target: number): void {
  const ratio = value / floor;
  const verdict = Number.isFinite(ratio) ? (ratio <= target ? "ok" : "OVER") : "";
  console.log(
    `${what.padEnd(62)} ${ms(value).padEnd(11)} floor ${ms(floor).padEnd(11)} ${
      Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : "—"
    }  (target ≤ ${target}×) ${verdict}`,
  );
}

/** Records a figure for `--json`. */
export function keep(key: FigureKey | string, value: number): void {
  figures[key] = Math.round(value * 10) / 10;
}

/** The JSON written by `--json`: every required key (null when not measured), then extras. */
export function figuresJson(): string {
  const out: Record<string, number | null> = {};
  for (const key of FIGURE_KEYS) out[key] = Number.isFinite(figures[key]) ? figures[key]! : null;
  for (const [key, value] of Object.entries(figures))
    if (!(key in out)) out[key] = Number.isFinite(value) ? value : null;
  return `${JSON.stringify(out, null, 2)}\n`;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
