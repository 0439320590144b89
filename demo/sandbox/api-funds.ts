/**
 * @module api-funds
 * Public money-movement routes: POST/GET /deposit, GET /deposit/list, POST /withdrawal/quote,
 * POST /withdrawal/commit, GET /withdrawal and GET /withdrawal/list (lists as `list-page.ts`). Anything async (address, QR code) happens before
 * the synchronous idempotency lookup-and-insert.
 */
import type { Hono } from "hono";
import { newAddress } from "./addresses.ts";
import {
  createdView,
  depositView,
  findDeposit,
  insertDeposit,
  parseDepositRequest,
  repeatedDeposit,
} from "./deposits.ts";
import { listPage } from "./list-page.ts";
import { qrPngDataUri } from "./qr-png.ts";
import type { DepositStatus, SandboxState, WithdrawalStatus } from "./state.ts";
import { dataResponse, readJsonObject } from "./wire.ts";
import { parseQuoteRequest, quoteView, quoteWithdrawal } from "./withdrawal-quotes.ts";
import { commitWithdrawal, findWithdrawal, withdrawalView } from "./withdrawals.ts";

/** Every deposit status a list's `status` may name (the service's). */
export const DEPOSIT_STATUSES: readonly DepositStatus[] = [
  "created",
  "processing",
  "completed",
  "suspended",
  "failed",
  "expired",
  "cancelled",
];
/** Every withdrawal status a list's `status` may name. */
export const WITHDRAWAL_STATUSES: readonly WithdrawalStatus[] = [
  "created",
  "processing",
  "completed",
  "failed",
  "cancelled",
];

/**
 * Registers the deposit and withdrawal routes.
 * @example
 * registerFunds(app, state);
 */
export function registerFunds(app: Hono, state: SandboxState): void {
  app.post("/deposit", async (c) => {
    const req = parseDepositRequest(state, await readJsonObject(c.req.raw));
    const existing = repeatedDeposit(state, req);
    if (existing) return dataResponse(createdView(existing), 200);
    const address = await newAddress(req.currency.network);
    const qrCode = await qrPngDataUri(address);
    const { deposit, created } = insertDeposit(state, req, address, qrCode);
    return dataResponse(createdView(deposit), created ? 201 : 200);
  });
  app.get("/deposit", (c) =>
    dataResponse(depositView(findDeposit(state, new URL(c.req.url).searchParams))),
  );
  app.get("/deposit/list", (c) =>
    listPage(
      state,
      new URL(c.req.url).searchParams,
      DEPOSIT_STATUSES,
      state.deposits.values(),
      depositView,
    ),
  );
  app.post("/withdrawal/quote", async (c) => {
    const req = parseQuoteRequest(state, await readJsonObject(c.req.raw));
    const { quote, created } = quoteWithdrawal(state, req);
    return dataResponse(quoteView(quote), created ? 201 : 200);
  });
  app.post("/withdrawal/commit", async (c) => {
    const { withdrawal, created } = commitWithdrawal(state, await readJsonObject(c.req.raw));
    return dataResponse(withdrawalView(withdrawal), created ? 201 : 200);
  });
  app.get("/withdrawal", (c) =>
    dataResponse(withdrawalView(findWithdrawal(state, new URL(c.req.url).searchParams))),
  );
  app.get("/withdrawal/list", (c) =>
    listPage(
      state,
      new URL(c.req.url).searchParams,
      WITHDRAWAL_STATUSES,
      state.withdrawals.values(),
      withdrawalView,
    ),
  );
}
