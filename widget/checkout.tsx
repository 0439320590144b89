/**
 * @module
 * The shopper's checkout: open → choose currency → pay → live status, in one component.
 *
 * State flows one way: every answer from the worker (POST, GET, SSE) is a full
 * `CheckoutSnapshot`, and the view is a function of the newest one. A snapshot with a lower
 * `seq` than the one shown is ignored, so a slow POST answer cannot undo a pushed update.
 *
 * The payment instructions show only while the attempt takes money (`created`,
 * `partially_paid`): once a payment is detected (`processing`, `suspended`) showing "send
 * exactly X" again would invite a second payment. After a shopper's action the focus moves to
 * the heading of what replaced the control they used, so a keyboard path never drops to <body>.
 *
 * `checkout:status` fires once per new state: a snapshot that differs from the one shown only
 * in `seq`/`updatedAt` (the stream's first frame repeating the POST's answer, a replay) is the
 * same state. Countdowns run on the worker's clock (`server-clock.ts`); when one reaches zero
 * the widget reads the checkout once, so the service's verdict (expired: "Try again") shows
 * without waiting for the stream. A refund address is asked for only when the excess could be
 * paid back (`payment.refund.possible`); otherwise the widget says why not.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { CheckoutSnapshot, CryptoCurrency } from "../worker/api/contract.ts";
import { ApiFailure, type CheckoutApi } from "./api.ts";
import { messageFor, TRANSIENT } from "./errors.ts";
import type { Emit } from "./events.ts";
import { countdown, formatCrypto, formatFiat } from "./format.ts";
import type { Translator } from "./i18n/index.ts";
import { follow } from "./live.ts";
import { loadQrEncoder } from "./qr.ts";
import { reportFailure } from "./report.ts";
import { serverClock } from "./server-clock.ts";
import { CurrencyPicker } from "./views/currency-picker.tsx";
import { HostedPanel } from "./views/hosted.tsx";
import { PaymentPanel } from "./views/payment.tsx";
import { RefundForm } from "./views/refund-form.tsx";

export interface CheckoutProps {
  api: CheckoutApi;
  token: string | null;
  i18n: Translator;
  emit: Emit;
}

const ENDED = new Set(["expired", "failed", "cancelled"]);
/** Lock failures that rule a currency out for this order (shown on its button). */
const RULED_OUT = /^(currency_unavailable|amount_below_minimum)$/;
/** Fiat strings like "0.00": any non-zero digit means an overpayment. */
const isOverpaid = (s: CheckoutSnapshot) => /[1-9]/.test(s.amountOverpaid);
/** What the shopper can see of a snapshot: equal for two snapshots of the same state. */
const stateOf = (s: CheckoutSnapshot) => JSON.stringify({ ...s, seq: 0, updatedAt: 0 });

function statusText(s: CheckoutSnapshot, i18n: Translator): string {
  const { t } = i18n;
  // A refunded order is closed: nothing to pay, whatever its last attempt says.
  if (s.orderState === "refunded") return t("statusRefunded");
  // The rest is below the service's minimum: no new attempt can take it (no Try again).
  if (s.underpaid)
    return t("statusRemainderBelowMinimum", {
      due: formatFiat(s.underpaid.amountDue, s.currency, s.fiatDecimalPlaces, i18n.locale),
      minimum: formatFiat(s.underpaid.minimum, s.currency, s.fiatDecimalPlaces, i18n.locale),
    });
  if (s.final)
    return isOverpaid(s)
      ? t("statusOverpaid", {
          extra: formatFiat(s.amountOverpaid, s.currency, s.fiatDecimalPlaces, i18n.locale),
        })
      : t("statusPaid");
  const p = s.attempt.payment;
  switch (s.attempt.status) {
    case "processing":
      return t("statusProcessing");
    case "suspended":
      return t("statusSuspended");
    case "partially_paid":
      return p
        ? t("statusPartial", {
            received: formatCrypto(p.received, p.decimalPlaces, i18n.locale),
            amount: formatCrypto(p.amount, p.decimalPlaces, i18n.locale),
            code: ticker(p.cryptoCurrencyCode),
          })
        : t("statusProcessing");
    case "expired":
      return t("statusExpired");
    case "failed":
      return t("statusFailed");
    case "cancelled":
      return t("statusCancelled");
    default:
      // Nothing to wait for before a currency is chosen.
      return p ? t("statusWaiting") : t("statusNew");
  }
}

/** The symbol shown beside amounts: `USDT_TRC20` → `USDT` (the network is said elsewhere). */
const ticker = (code: string) => code.split("_")[0] ?? code;

export function Checkout({ api, token, i18n, emit }: CheckoutProps) {
  const { t } = i18n;
  const [snapshot, setSnapshot] = useState<CheckoutSnapshot | null>(null);
  const [currencies, setCurrencies] = useState<CryptoCurrency[] | null>(null);
  const [error, setError] = useState<string | null>(token ? null : "missing_token");
  const [busy, setBusy] = useState(false);
  const [hosted, setHosted] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const [off, setOff] = useState<Record<string, string>>({});
  const [qrReady, setQrReady] = useState(false);
  const [announce, setAnnounce] = useState("");
  const [clock] = useState(serverClock);
  const [now, setNow] = useState(Date.now());
  const [down, setDown] = useState(false);
  const [reload, setReload] = useState(0);
  const shown = useRef<CheckoutSnapshot | null>(null);
  // The effect below outlives a locale switch: it must announce in the current language.
  const lang = useRef(i18n);
  lang.current = i18n;
  const root = useRef<HTMLDivElement>(null);
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const target = focusNext.current && root.current?.querySelector<HTMLElement>(focusNext.current);
    if (target) {
      focusNext.current = null;
      target.focus();
    }
  });

  const accept = (next: CheckoutSnapshot) => {
    const prev = shown.current;
    if (prev && prev.id === next.id && next.seq < prev.seq) return;
    clock.see(next.updatedAt);
    setNow(clock.now());
    shown.current = next;
    setSnapshot(next);
    setError(null);
    if (!prev || stateOf(prev) !== stateOf(next)) {
      emit("checkout:status", next);
      if (next.final && !prev?.final) emit("checkout:paid", next);
      if (ENDED.has(next.attempt.status) && prev?.attempt.status !== next.attempt.status)
        emit("checkout:expired", next);
      setAnnounce(statusText(next, lang.current));
    }
  };
  const fail = (e: unknown) =>
    setError(reportFailure(emit, e, (code) => lang.current.t(messageFor(code))));
  /** Runs a shopper's action; `picked` is the currency a lock asked for. */
  const run = async (action: () => Promise<CheckoutSnapshot>, picked?: string) => {
    setBusy(true);
    try {
      accept(await action());
    } catch (e) {
      focusNext.current = null;
      const code = e instanceof ApiFailure ? e.code : "";
      if (code === "lock_unsupported") setHosted(true);
      else {
        if (picked && RULED_OUT.test(code)) setOff((o) => ({ ...o, [picked]: code }));
        fail(e);
      }
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (!token) {
      fail(new ApiFailure("missing_token", "<crypto-checkout> has no token attribute."));
      return;
    }
    setError(null);
    let stop = () => {};
    let cancelled = false;
    api
      .open(token)
      .then((first) => {
        if (cancelled) return;
        accept(first);
        if (!first.final)
          stop = follow(
            api.eventsUrl(first.id),
            () => api.get(first.id),
            accept,
            fail,
            (up) => setDown(!up),
          );
        // Also in hosted mode: the refund form needs the currency's addressMask.
        api.currencies().then(setCurrencies, () => setCurrencies([]));
      })
      .catch(fail);
    const tick = setInterval(() => setNow(clock.now()), 1000);
    return () => {
      cancelled = true;
      stop();
      clearInterval(tick);
    };
  }, [token, reload]);

  // The encoder loads once any payment shows: in-page, or hosted after a pick on the service's page.
  const showsPayment = !!snapshot?.attempt.payment;
  useEffect(() => {
    if (showsPayment) loadQrEncoder(api.base).then(() => setQrReady(true));
  }, [showsPayment]);
  // At zero, ask once what the service made of the attempt (expired → "Try again").
  const closes = snapshot?.attempt.payment?.expiresAt ?? null;
  const closed = !!closes && !countdown(closes, now);
  useEffect(() => {
    if (closed && snapshot) api.get(snapshot.id).then(accept, () => {});
  }, [closed, closes]);

  if (!snapshot) {
    return (
      <div class="card" aria-busy={error ? "false" : "true"}>
        {error ? <Problem code={error} i18n={i18n} /> : <p class="muted">{t("loading")}</p>}
        {error && TRANSIENT.has(error) ? (
          <button type="button" class="primary" onClick={() => setReload(reload + 1)}>
            {t("retry")}
          </button>
        ) : null}
      </div>
    );
  }
  const s = snapshot;
  const p = s.attempt.payment;
  const status = s.attempt.status;
  const code = p?.cryptoCurrencyCode ?? s.refundAddress?.cryptoCurrencyCode ?? null;
  const lockedCurrency = currencies?.find((c) => c.code === code) ?? null;
  const overpaid = isOverpaid(s);
  const refunded = s.orderState === "refunded";
  const wantsRefund = !refunded && (status === "partially_paid" || overpaid);
  const payable = !s.final && !refunded && !ENDED.has(status) && !s.canRetry;
  const inPage = s.mode === "in-page" && !hosted;
  const takesMoney = status === "created" || status === "partially_paid";

  return (
    <div class="card" ref={root}>
      {s.sandbox ? (
        <p class="banner" role="note">
          {t("testMode")}
        </p>
      ) : null}
      <header>
        <p class="merchant">{s.displayName}</p>
        {s.description ? <p class="muted">{s.description}</p> : null}
        <p class="total">
          <span class="muted">{t("orderTotal")}</span>{" "}
          <strong>{formatFiat(s.amount, s.currency, s.fiatDecimalPlaces, i18n.locale)}</strong>
        </p>
        {s.orderState === "partially_paid" && s.attempt.number > 1 ? (
          <p class="muted">
            {t("partialAcrossAttempts", {
              paid: formatFiat(s.amountPaid, s.currency, s.fiatDecimalPlaces, i18n.locale),
              total: formatFiat(s.amount, s.currency, s.fiatDecimalPlaces, i18n.locale),
            })}
          </p>
        ) : null}
      </header>

      <p class={`status status-${s.final ? "paid" : status}`}>{statusText(s, i18n)}</p>
      {down && !s.final ? (
        <p class="muted" role="status">
          {t("reconnecting")}
        </p>
      ) : null}
      {error ? <Problem code={error} i18n={i18n} /> : null}

      {payable && (!p || choosing) && inPage && status === "created" ? (
        currencies ? (
          <CurrencyPicker
            currencies={currencies}
            i18n={i18n}
            busy={busy}
            off={off}
            onPick={(c) => {
              focusNext.current = "#cc-pay";
              void run(() => api.lock(s.id, c), c).then(() => setChoosing(false));
            }}
          />
        ) : (
          <p class="muted">{t("loading")}</p>
        )
      ) : null}

      {payable && !inPage ? (
        <HostedPanel url={s.attempt.paymentPageUrl} base={api.base} i18n={i18n} />
      ) : null}

      {payable && p && !choosing && takesMoney ? (
        <PaymentPanel
          payment={p}
          partial={status === "partially_paid"}
          i18n={i18n}
          now={now}
          qrReady={qrReady}
          onChange={
            status === "created" && !/[1-9]/.test(p.received) && inPage
              ? () => {
                  focusNext.current = "#cc-pick";
                  setChoosing(true);
                }
              : undefined
          }
        />
      ) : null}

      {s.canRetry ? (
        <button
          type="button"
          class="primary"
          disabled={busy}
          onClick={() => {
            // Hosted mode has no currency list: the payment page link comes back instead.
            focusNext.current = inPage ? "#cc-pick" : ".hosted a";
            void run(() => api.retry(s.id));
          }}
        >
          {t("tryAgain")}
        </button>
      ) : null}

      {overpaid && p ? (
        <p class="muted">
          {t("statusPartial", {
            received: formatCrypto(p.received, p.decimalPlaces, i18n.locale),
            amount: formatCrypto(p.amount, p.decimalPlaces, i18n.locale),
            code: ticker(p.cryptoCurrencyCode),
          })}
        </p>
      ) : null}

      {/* A snapshot stored before `refund` existed (an SSE replay) has none: ask, as before. */}
      {wantsRefund && p?.refund && !p.refund.possible ? (
        <p class="muted">
          {t("refundTooSmall", {
            excess: formatCrypto(p.refund.excess, p.decimalPlaces, i18n.locale),
            minimum: formatCrypto(p.refund.minimum, p.decimalPlaces, i18n.locale),
            code: ticker(p.cryptoCurrencyCode),
          })}
        </p>
      ) : wantsRefund && lockedCurrency ? (
        <RefundForm
          base={api.base}
          currency={lockedCurrency}
          sandbox={s.sandbox}
          saved={s.refundAddress?.address ?? null}
          i18n={i18n}
          onSave={(address) =>
            api.refundAddress(s.id, lockedCurrency.code, address).then(
              (next) => {
                accept(next);
                return true;
              },
              (e: unknown) => {
                // The worker's own address check speaks next to the field, not as a page error.
                if (e instanceof ApiFailure && e.code === "invalid_address") return false;
                fail(e);
                return true;
              },
            )
          }
        />
      ) : null}

      {s.final && s.returnUrl ? (
        <a class="button" href={s.returnUrl}>
          {t("backToShop")}
        </a>
      ) : null}
      <p class="sr-only" aria-live="polite">
        {announce}
      </p>
    </div>
  );
}

function Problem({ code, i18n }: { code: string; i18n: Translator }) {
  return (
    <p class="error" role="alert">
      {i18n.t(messageFor(code), { code: "", network: "" })}
    </p>
  );
}
