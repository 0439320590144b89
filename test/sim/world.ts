/**
 * @module world
 * One history's world: the order under test (its invoice number, checkout id and object),
 * what the simulated service has delivered or lost, the steps still running in the
 * background, the merchant's payouts, the shopper's open widget and a trace of answers.
 */
import { env } from "cloudflare:workers";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import type { PaymentRequired } from "../../worker/lib/x402/protocol.ts";
import { openCheckout, worker } from "../worker/helpers.ts";
import type { Stats } from "./stats.ts";
import type { Watcher } from "./watcher.ts";

/** Refund addresses: a valid Tron address, and the same with a broken base58check checksum. */
export const GOOD_ADDRESS = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
export const BAD_ADDRESS = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8";

let serial = 0;

/** One x402 authorization a history signed: its payer (fresh: one nonce each) and header. */
export interface X402Signed {
  payer: string;
  nonce: string;
  header: string;
}

export class World {
  readonly base: string;
  checkoutId = "";
  /** Deliveries the worker acknowledged (2xx) or the service gave up on. */
  readonly acked = new Set<string>();
  readonly lost = new Set<string>();
  readonly background: Promise<unknown>[] = [];
  readonly payouts: string[] = [];
  /** Merchant refund requests made (each can name at most one refund payout object). */
  refundRequests = 0;
  watcher: Watcher | null = null;
  readonly trace: string[];
  /** x402: every authorization signed (each by a payer of its own), oldest first. */
  readonly x402Signed: X402Signed[] = [];
  /** x402: the payers' private keys (the same nonce signed again). */
  readonly x402Keys = new Map<string, `0x${string}`>();
  /** x402: the terms the checkout last offered (a 402), signed for while none are offered. */
  x402Terms: PaymentRequired | null = null;
  /** x402: until when a settle held at the service may still land (epoch ms). */
  x402HeldUntil = 0;
  /** Steps the worker answered with 500 `internal` (an unhandled error: always a bug). */
  readonly internalErrors: string[] = [];

  /** When the history began (epoch ms): the deployment's calls are counted from here. */
  readonly startedAt = Date.now();
  readonly seed: number;
  readonly sub: string;
  readonly amount: string;
  readonly stats: Stats;

  constructor(seed: number, sub: string, amount: string, stats: Stats, trace: string[] = []) {
    this.trace = trace;
    this.seed = seed;
    this.sub = sub;
    this.amount = amount;
    this.stats = stats;
    this.base = `cc-${sub}`;
  }

  /** A fresh world with an opened checkout (retried: opening is not what is under test). */
  static async open(seed: number, amount: string, stats: Stats, trace: string[]): Promise<World> {
    serial += 1;
    const sub = `sim${seed.toString(36)}x${serial.toString(36)}${Date.now().toString(36)}`;
    const world = new World(seed, sub, amount, stats, trace);
    for (let i = 0; i < 3; i += 1) {
      const opened = await openCheckout({ sub, amount }, `10.77.${serial % 250}.${i + 1}`);
      world.note(`open → ${opened.status}`);
      if (opened.body.data?.id) {
        world.checkoutId = opened.body.data.id;
        return world;
      }
    }
    throw new Error(`could not open checkout ${sub}`);
  }

  /** The order's Durable Object. */
  get stub() {
    return env.ORDERS.get(env.ORDERS.idFromName(this.checkoutId));
  }

  /** The snapshot the widget would read now. */
  async snapshot(): Promise<CheckoutSnapshot> {
    const res = await worker(`/v1/checkouts/${this.checkoutId}`);
    return ((await res.json()) as { data: CheckoutSnapshot }).data;
  }

  /** Records one line of what happened (printed with a failure). */
  note(line: string): void {
    this.trace.push(line);
  }
}
