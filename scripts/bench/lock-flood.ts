/**
 * @module
 * The bench's lock-flood stage: one shopper re-locking in a loop must not take the deployment's
 * upstream budget. On a stack of its own with the shipped budget (`UPSTREAM_MAX_RPS` 10) and the
 * shipped per-client limits (`wrangler.toml` `[[ratelimits]]`, which `wrangler dev` enforces):
 *
 * 1. no flood, for `baselineSeconds`: a victim loop (each round another shopper, an address of
 *    its own: a create, then a currency lock, timed together) and the merchant's doctor
 *    (`GET /v1/doctor`, timed) every `doctorGapMs`;
 * 2. the attacker opens `checkouts` checkouts from each of `clients` addresses (untimed: its
 *    checkouts are free, the storefront mints their tokens);
 * 3. the flood, for `seconds`: every attacker checkout re-locks alternate currencies
 *    (USDT_TRC20 → BTC → ETH …), one ask every `gapMs` (the pace one checkout's own limit
 *    allows, 10 a minute), whatever it was answered; beside it the same victim and doctor loops.
 *
 * The client is the address `cf-connecting-ip` names (`worker/edge/http/client-key.ts`):
 * `wrangler dev` passes a request's own `CF-Connecting-IP` through to the worker (it sets one
 * only when the request has none), so each loop sends the address it plays.
 *
 * The calls the service answered are told apart by the order each is about (the sandbox's
 * request log names it): the attacker's share = calls about its orders / all calls the service
 * answered during the flood (the worker's API-key calls: reconciliation reads included).
 *
 * Keys (each phase, `no_flood` and `under_lock_flood`): `victim_create_lock_p95_ms_…` (and
 * `…_p50_ms_…`), `victim_create_lock_failed_…` (rounds not answered 200 + 200),
 * `doctor_max_ms_…`, `attacker_upstream_share_…` (percent of the calls at the service; 0 with
 * no flood by construction: the attacker is not there yet).
 */
import type { DemoStack } from "../../demo/run.ts";
import { mintCheckoutToken } from "../../packages/server/src/index.ts";
import { DEMO_MERCHANT_SECRETS } from "../dev-vars.ts";
import { keep, ms, pct, row, sleep, sorted } from "./report.ts";

/** What the stage needs from the bench. */
export interface LockFloodOptions {
  /** Starts a stack with the shipped budget and limits. */
  start: () => Promise<DemoStack>;
  /** Attacker addresses (default 4). */
  clients: number;
  /** Checkouts each attacker address opens (default 30: the create limit's minute). */
  checkouts: number;
  /** How long the flood lasts (default 60 s). */
  seconds: number;
  /** How long the victim and the doctor are measured with no flood first. */
  baselineSeconds: number;
  /** Between two re-locks of one attacker checkout (default 6,000 ms: 10 a minute). */
  gapMs: number;
  /** Between two victim rounds. */
  victimGapMs: number;
  /** Between two doctor asks. */
  doctorGapMs: number;
  run: string;
}

/** The currencies the attacker alternates between (each change a real call to the service). */
const FLOOD_CURRENCIES = ["USDT_TRC20", "BTC", "ETH"] as const;

interface Answer {
  status: number;
  code: string;
  retryAfter: string | null;
}

const post = (url: string, body: unknown, ip: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": ip },
    body: JSON.stringify(body),
  });

/** Status, error code and `Retry-After` of an answer (its body read). */
async function answerOf(res: Response): Promise<Answer & { body: unknown }> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // A plain-text answer (a proxy's): its status says enough.
  }
  const code = (body as { error?: { code?: string } } | null)?.error?.code ?? "";
  return { status: res.status, code, retryAfter: res.headers.get("retry-after"), body };
}

/** Opens a checkout for `sub` from `ip`; answers its id or the refusal. */
async function open(workerUrl: string, sub: string, ip: string) {
  const token = await mintCheckoutToken(
    { sub, amount: "25.00", currency: "USD" },
    DEMO_MERCHANT_SECRETS.checkoutSigningSecret,
  );
  const answer = await answerOf(await post(`${workerUrl}/v1/checkouts`, { token }, ip));
  const id = (answer.body as { data?: { id?: string } } | null)?.data?.id;
  return { ...answer, id };
}

const lock = async (workerUrl: string, id: string, code: string, ip: string) =>
  answerOf(
    await post(`${workerUrl}/v1/checkouts/${id}/currency`, { cryptoCurrencyCode: code }, ip),
  );

/** Counts answers as "status code" → n. */
class Tally {
  readonly #seen = new Map<string, number>();
  add(a: Answer): void {
    const what = `${a.status}${a.code ? ` ${a.code}` : ""}${a.status === 429 ? ` (Retry-After ${a.retryAfter ?? "none"})` : ""}`;
    this.#seen.set(what, (this.#seen.get(what) ?? 0) + 1);
  }
  get size(): number {
    return this.#seen.size;
  }
  toString(): string {
    return [...this.#seen].map(([what, n]) => `${what} × ${n}`).join(", ");
  }
}

/** The victim and the doctor, measured until `until` (performance.now()). */
async function victimAndDoctor(
  o: LockFloodOptions,
  workerUrl: string,
  phase: string,
  until: number,
) {
  const victim: number[] = [];
  const doctor: number[] = [];
  const failed = new Tally();
  let round = 0;
  const victimLoop = async () => {
    while (performance.now() < until) {
      round += 1;
      // Another shopper each round: an address of its own (one address is limited to 30
      // creates a minute, and an honest shopper opens one checkout).
      const ip = `10.77.${phase === "flood" ? 128 + (round >> 8) : round >> 8}.${round & 255}`;
      const t0 = performance.now();
      const opened = await open(workerUrl, `victim-${o.run}-${phase}-${round}`, ip);
      const locked = opened.id ? await lock(workerUrl, opened.id, "USDT_TRC20", ip) : opened;
      if (opened.id && locked.status === 200) victim.push(performance.now() - t0);
      else failed.add(locked);
      await sleep(o.victimGapMs);
    }
  };
  const doctorLoop = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const res = await fetch(`${workerUrl}/v1/doctor`, {
        headers: { authorization: `Bearer ${DEMO_MERCHANT_SECRETS.merchantApiToken}` },
      });
      await res.arrayBuffer();
      if (res.ok) doctor.push(performance.now() - t0);
      else failed.add({ status: res.status, code: "doctor", retryAfter: null });
      await sleep(o.doctorGapMs);
    }
  };
  await Promise.all([victimLoop(), doctorLoop()]);
  return { victim: sorted(victim), doctor: sorted(doctor), failed, rounds: round };
}

/**
 * The attacker's checkouts, opened from its addresses one a second each (half the fewest calls
 * any client may hold in a window, `MIN_SHARE`: a create's lease may be granted ahead of the
 * create that spends it), so its share refuses none: a refused create still counts against the
 * address's create limit, and the attacker would open fewer checkouts.
 */
async function openAttack(o: LockFloodOptions, workerUrl: string, ips: string[]) {
  const ids: { id: string; ip: string }[] = [];
  const refused = new Tally();
  await Promise.all(
    ips.map(async (ip, c) => {
      for (let i = 0; i < o.checkouts; i += 1) {
        const started = performance.now();
        const opened = await open(workerUrl, `flood-${o.run}-c${c}-${i}`, ip);
        if (opened.id) ids.push({ id: opened.id, ip });
        else refused.add(opened);
        await sleep(Math.max(0, OPEN_GAP_MS - (performance.now() - started)));
      }
    }),
  );
  return { ids, refused };
}

/** Between two of one address's creates while the attacker opens its checkouts. */
const OPEN_GAP_MS = 1_000;

interface LogEntry {
  at: string;
  authorized: boolean;
  orderId: string | null;
}

/** The worker's calls the service answered in [from, to), and those about the attacker's orders. */
async function upstreamCalls(sandboxUrl: string, from: number, to: number, attacker: string) {
  const q = new URLSearchParams({ since: new Date(from).toISOString() });
  const res = await fetch(`${sandboxUrl}/sandbox/requests?${q}`);
  const { data } = (await res.json()) as { data: LogEntry[] };
  const calls = data.filter((r) => r.authorized && Date.parse(r.at) < to);
  const ours = calls.filter((r) => r.orderId?.startsWith(attacker)).length;
  // Per second (the budget's windows): how often the whole budget was spent, and by whom.
  const seconds = new Map<number, { all: number; attacker: number }>();
  for (const r of calls) {
    const second = Math.floor(Date.parse(r.at) / 1000);
    const count = seconds.get(second) ?? { all: 0, attacker: 0 };
    count.all += 1;
    if (r.orderId?.startsWith(attacker)) count.attacker += 1;
    seconds.set(second, count);
  }
  const counts = [...seconds.values()];
  return {
    all: calls.length,
    attacker: ours,
    busiest: Math.max(0, ...counts.map((c) => c.all)),
    attackerBusiest: Math.max(0, ...counts.map((c) => c.attacker)),
    full: counts.filter((c) => c.all >= FULL_SECOND).length,
  };
}

/** Calls in one second that spend the shipped budget's shopper lanes (8 of its 10). */
const FULL_SECOND = 8;

/**
 * Runs the stage (see the module header) and keeps its figures.
 *
 * @example
 * await lockFlood({ start, clients: 4, checkouts: 30, seconds: 60, baselineSeconds: 20, gapMs: 6000, victimGapMs: 1000, doctorGapMs: 2000, run });
 */
export async function lockFlood(o: LockFloodOptions): Promise<void> {
  const stack = await o.start();
  try {
    const { workerUrl, sandboxUrl } = stack.urls;
    const attackerOrders = `cc-flood-${o.run}-`;

    // 1. No flood.
    let from = Date.now();
    const quiet = await victimAndDoctor(
      o,
      workerUrl,
      "quiet",
      performance.now() + o.baselineSeconds * 1000,
    );
    const quietCalls = await upstreamCalls(sandboxUrl, from, Date.now(), attackerOrders);
    report("no_flood", quiet, quietCalls);

    // 2. The attacker's checkouts.
    const ips = Array.from({ length: o.clients }, (_, c) => `10.66.${c}.1`);
    const t0 = performance.now();
    const { ids, refused } = await openAttack(o, workerUrl, ips);
    row(
      `lock flood: attacker checkouts opened (${o.clients} addresses × ${o.checkouts}) / seconds`,
      `${ids.length} / ${((performance.now() - t0) / 1000).toFixed(0)}`,
      refused.size > 0 ? `refused on the way: ${refused}` : "",
    );

    // 3. The flood, with the victim and the doctor beside it.
    from = Date.now();
    const until = performance.now() + o.seconds * 1000;
    const answered = new Tally();
    const flood = ids.map(async ({ id, ip }, k) => {
      // Spread over one gap, so the asks are even, not a burst every `gapMs`.
      await sleep((k * o.gapMs) / ids.length);
      for (let n = k; performance.now() < until; n += 1) {
        const code = FLOOD_CURRENCIES[n % FLOOD_CURRENCIES.length]!;
        answered.add(
          await lock(workerUrl, id, code, ip).catch(() => ({
            status: 0,
            code: "network",
            retryAfter: null,
          })),
        );
        await sleep(o.gapMs);
      }
    });
    const [measured] = await Promise.all([victimAndDoctor(o, workerUrl, "flood", until), ...flood]);
    const to = Date.now();
    // Calls granted near the end land within a window's edge; let them reach the log.
    await sleep(1_500);
    const floodCalls = await upstreamCalls(sandboxUrl, from, to, attackerOrders);
    row("lock flood: what the attacker's re-locks were answered", answered.toString());
    report("under_lock_flood", measured, floodCalls, (to - from) / 1000);
    row(
      "lock flood: attacker's calls at the service / all calls there",
      `${floodCalls.attacker} / ${floodCalls.all}`,
      `fair share while others ask: ≤ ${o.clients} of ${o.clients + 1} clients (${((o.clients / (o.clients + 1)) * 100).toFixed(0)} %) of the shopper lane`,
    );
  } finally {
    await stack.stop();
  }
}

function report(
  phase: "no_flood" | "under_lock_flood",
  m: Awaited<ReturnType<typeof victimAndDoctor>>,
  calls: Awaited<ReturnType<typeof upstreamCalls>>,
  seconds?: number,
): void {
  const label = phase === "no_flood" ? "no flood" : "under lock flood";
  const p95 = pct(m.victim, 95);
  row(
    `lock flood, ${label}: victim create + lock p50 / p95 (n=${m.victim.length})`,
    `${ms(pct(m.victim, 50))} / ${ms(p95)}`,
    phase === "under_lock_flood" ? `target p95 ≤ 1 s ${p95 <= 1000 ? "ok" : "OVER"}` : "",
  );
  const doctorMax = m.doctor.at(-1) ?? Number.NaN;
  row(
    `lock flood, ${label}: doctor p50 / slowest (n=${m.doctor.length})`,
    `${ms(pct(m.doctor, 50))} / ${ms(doctorMax)}`,
    phase === "under_lock_flood" ? `target ≤ 1 s ${doctorMax <= 1000 ? "ok" : "OVER"}` : "",
  );
  if (m.failed.size > 0) row(`lock flood, ${label}: victim or doctor refused`, m.failed.toString());
  const slow = m.victim.filter((t) => t > 1000).length;
  row(
    `lock flood, ${label}: victim rounds over 1 s / slowest`,
    `${slow} of ${m.victim.length} / ${ms(m.victim.at(-1) ?? Number.NaN)}`,
  );
  row(
    `lock flood, ${label}: busiest second at the service (attacker's) / seconds with ≥ ${FULL_SECOND} calls`,
    `${calls.busiest} (${calls.attackerBusiest}) / ${calls.full}`,
  );
  const share = calls.all > 0 ? calls.attacker / calls.all : 0;
  row(
    `lock flood, ${label}: calls at the service${seconds ? " per s" : ""} / attacker's share`,
    `${seconds ? (calls.all / seconds).toFixed(1) : calls.all} / ${(share * 100).toFixed(1)} %`,
  );
  keep(`victim_create_lock_p95_ms_${phase}`, p95);
  keep(`victim_create_lock_p50_ms_${phase}`, pct(m.victim, 50));
  keep(`victim_create_lock_failed_${phase}`, m.rounds - m.victim.length);
  keep(`doctor_max_ms_${phase}`, doctorMax);
  keep(`attacker_upstream_share_${phase}`, share * 100);
}
