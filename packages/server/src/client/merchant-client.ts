/**
 * @module
 * A typed client of the worker's merchant API (Bearer `MERCHANT_API_TOKEN`): orders (one, a
 * page, every one by cursor, CSV), refunds, payouts, the notification log and the doctor.
 * Server-side only: the token authorises refunds and payouts.
 */
import type {
  DoctorReportView,
  NotificationStatus,
  NotificationType,
  NotificationView,
  OrderLedgerView,
  OrderState,
  OrderSummary,
  Page,
  PayoutRequest,
  PayoutView,
} from "../types.ts";
import { MerchantApiError } from "./errors.ts";
import { toQuery } from "./query.ts";
import { type MerchantClientOptions, send, sendForData } from "./transport.ts";

/** Filters of `GET /v1/orders` and `GET /v1/orders.csv`. */
export interface OrderFilters {
  /** One state or several. */
  state?: OrderState | readonly OrderState[];
  /** Created at or after (inclusive). */
  createdFrom?: Date | string;
  /** Created before (exclusive). */
  createdTo?: Date | string;
  /** Invoice numbers starting with this, `[A-Za-z0-9._-]{1,64}`. */
  invoicePrefix?: string;
  /** The order's fiat code. */
  currency?: string;
  /** The crypto currency it was paid or locked in. */
  cryptoCurrencyCode?: string;
}

/** Paging of the list routes. */
export interface PageQuery {
  /** 1..100 (the worker's default: 50). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/** Filters of `GET /v1/notifications`. */
export interface NotificationFilters {
  status?: NotificationStatus;
  invoiceNumber?: string;
}

/** Most pages an iteration reads before stopping with an error (a loop guard: 100 × 100 rows). */
const MAX_PAGES = 10_000;

const segment = (value: string) => encodeURIComponent(value);

/**
 * @example
 * const client = new MerchantClient({ baseUrl: "https://checkout.example.com", token: process.env.MERCHANT_API_TOKEN! });
 * for await (const order of client.orders({ state: "paid" })) console.log(order.invoiceNumber, order.amountPaid);
 */
export class MerchantClient {
  readonly #options: MerchantClientOptions;

  constructor(options: MerchantClientOptions) {
    if (!options || typeof options.baseUrl !== "string" || !/^https?:\/\//.test(options.baseUrl)) {
      throw new TypeError("baseUrl must be the worker's http(s) URL");
    }
    if (typeof options.token !== "string" || options.token.length === 0) {
      throw new TypeError("token must be the worker's MERCHANT_API_TOKEN");
    }
    this.#options = { ...options };
  }

  /** `GET /v1/orders/:invoiceNumber`: one order's ledger; `not_found` (404) for none. */
  order(invoiceNumber: string): Promise<OrderLedgerView> {
    return sendForData(this.#options, {
      method: "GET",
      path: `/v1/orders/${segment(invoiceNumber)}`,
    });
  }

  /** `GET /v1/orders`: one page, newest first. */
  listOrders(query: OrderFilters & PageQuery = {}): Promise<Page<OrderSummary>> {
    return this.#page(`/v1/orders${toQuery({ ...query })}`);
  }

  /**
   * Every order matching `filters`, newest first, reading page after page by cursor.
   *
   * @example
   * for await (const order of client.orders({ createdFrom: "2026-01-01T00:00:00Z" })) …
   */
  orders(filters: OrderFilters & { limit?: number } = {}): AsyncIterable<OrderSummary> {
    return this.#iterate((cursor) => this.listOrders({ ...filters, cursor }));
  }

  /** `GET /v1/orders.csv`: every matching order as CSV text (header row first). */
  async ordersCsv(filters: OrderFilters = {}): Promise<string> {
    const response = await send(this.#options, {
      method: "GET",
      path: `/v1/orders.csv${toQuery({ ...filters })}`,
    });
    return response.text();
  }

  /**
   * `POST /v1/orders/:invoiceNumber/refund`: refunds `amount` (a decimal string, in the crypto
   * received), or everything refundable when absent; answers the refund's payout.
   */
  refund(invoiceNumber: string, options: { amount?: string } = {}): Promise<PayoutView> {
    return sendForData(this.#options, {
      method: "POST",
      path: `/v1/orders/${segment(invoiceNumber)}/refund`,
      body: options.amount === undefined ? {} : { amount: options.amount },
    });
  }

  /** `POST /v1/payouts`: a quote (the same `orderId` answers the same quote). */
  quotePayout(request: PayoutRequest): Promise<PayoutView> {
    return sendForData(this.#options, { method: "POST", path: "/v1/payouts", body: request });
  }

  /** `POST /v1/payouts/:orderId/commit`: sends the quoted payout, once. */
  commitPayout(orderId: string): Promise<PayoutView> {
    return sendForData(this.#options, {
      method: "POST",
      path: `/v1/payouts/${segment(orderId)}/commit`,
    });
  }

  /** `GET /v1/payouts/:orderId`. */
  payout(orderId: string): Promise<PayoutView> {
    return sendForData(this.#options, { method: "GET", path: `/v1/payouts/${segment(orderId)}` });
  }

  /** `GET /v1/notifications`: one page of the notification log, newest first. */
  listNotifications(query: NotificationFilters & PageQuery = {}): Promise<Page<NotificationView>> {
    return this.#page(`/v1/notifications${toQuery({ ...query })}`);
  }

  /** Every notification matching `filters`, newest first. */
  notifications(
    filters: NotificationFilters & { limit?: number } = {},
  ): AsyncIterable<NotificationView> {
    return this.#iterate((cursor) => this.listNotifications({ ...filters, cursor }));
  }

  /** `POST /v1/notifications/:id/redeliver`: back to `pending`, sent again soon. */
  redeliverNotification(id: string): Promise<NotificationView> {
    return sendForData(this.#options, {
      method: "POST",
      path: `/v1/notifications/${segment(id)}/redeliver`,
    });
  }

  /** `POST /v1/notifications/test`: signed test events (`data.test = true`), one of each type by default. */
  sendTestNotifications(type?: NotificationType): Promise<NotificationView[]> {
    return sendForData(this.#options, {
      method: "POST",
      path: "/v1/notifications/test",
      body: type === undefined ? {} : { type },
    });
  }

  /** `GET /v1/doctor`: the report, whether it passed (200) or not (502). */
  doctor(): Promise<DoctorReportView> {
    return sendForData(this.#options, { method: "GET", path: "/v1/doctor", dataStatuses: [502] });
  }

  async #page<T>(path: string): Promise<Page<T>> {
    const response = await send(this.#options, { method: "GET", path });
    const body = (await response.json().catch(() => null)) as Partial<Page<T>> | null;
    if (!body || !Array.isArray(body.data) || !("nextCursor" in body)) {
      throw new MerchantApiError(
        response.status,
        "invalid_response",
        `GET ${path} did not answer a page.`,
      );
    }
    return { data: body.data, nextCursor: body.nextCursor ?? null };
  }

  async *#iterate<T>(read: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
    let cursor: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await read(cursor);
      yield* page.data;
      if (page.nextCursor === null) return;
      if (page.nextCursor === cursor) {
        throw new MerchantApiError(
          200,
          "invalid_response",
          "The list answered the same cursor twice.",
        );
      }
      cursor = page.nextCursor;
    }
    throw new MerchantApiError(200, "invalid_response", `Stopped after ${MAX_PAGES} pages.`);
  }
}
