/**
 * @module control-records
 * The records of the sandbox's own test controls, as `SandboxState` keeps them: injected faults
 * (`faults.ts`), the fake merchant inbox (`merchant-inbox.ts`) and the request log
 * (`request-log.ts`). Types only, importing nothing, so the state and the modules that act on
 * these records never import each other.
 */

/** How an injected fault misbehaves (see `faults.ts`). */
export type FaultMode =
  | "delay"
  | "status"
  | "timeout-after-create"
  | "drop"
  | "malformed"
  | "stale";

/** One injected fault on an API path. */
export interface Fault {
  id: string;
  method: string | null;
  path: string;
  mode: FaultMode;
  /** Matches left before the fault is removed. */
  times: number;
  delayMs: number;
  status: number;
  msBeforeNext: number;
  code: string | null;
  variant: "truncated" | "shape";
  /** `stale` only: the earlier status whose snapshot is answered. */
  asStatus: string | null;
  /** Only requests about this order (orderId equal or `scope-…`); null = every request. */
  scope: string | null;
}

/** One POST the fake merchant backend received. */
export interface InboxEntry {
  at: string;
  headers: Record<string, string>;
  body: string;
  /** What the inbox answered. */
  status: number;
}

/** The fake merchant backend: what it received, and the failures it is told to answer. */
export interface InboxState {
  entries: InboxEntry[];
  failures: { status: number; remaining: number } | null;
}

/** One API request, as the request log keeps it. */
export interface RequestLogEntry {
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  authorized: boolean;
  requestId: string;
  /** The order the request is about (`fault-scope.ts` `requestOrderId`), null when none. */
  orderId: string | null;
}
