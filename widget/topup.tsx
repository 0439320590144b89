/**
 * @module
 * Top-up mode (`<crypto-checkout mode="deposit">`): a standalone deposit address for a
 * customer. Shows the exact minimum, the tenant's service fee as read from the service (never a
 * constant), and — once completed — what was credited: received − service fee − network fee.
 *
 * The token's claims are read (`token.ts`; not verified: the worker verifies) only to know
 * whether the merchant fixed the currency; otherwise the customer picks one from the live list.
 *
 * Invariants: one deposit request at a time (a double click opens one deposit); an answer that
 * arrives after unmount (or a token change) is dropped, so no stream outlives the view;
 * snapshots follow the checkout's rule (`snapshots.ts`: a duplicate or older `seq` is ignored
 * before any event, `checkout:status` once per new state); `checkout:paid` fires once; the
 * minimum shown is the larger of two decimal strings, compared exactly (`decimal.ts`).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { CryptoCurrency, DepositSnapshot } from "../packages/contract/src/http-api.ts";
import { ApiFailure, type CheckoutApi } from "./api.ts";
import { maxDecimal } from "./decimal.ts";
import { messageFor, TRANSIENT } from "./errors.ts";
import type { Emit } from "./events.ts";
import { formatCrypto } from "./format.ts";
import type { Translator } from "./i18n/index.ts";
import { follow } from "./live.ts";
import { loadQrEncoder } from "./qr.ts";
import { reportFailure } from "./report.ts";
import { isNewState, supersedes } from "./snapshots.ts";
import { fixedCurrency } from "./token.ts";
import { walletLink } from "./url.ts";
import { CurrencyPicker } from "./views/currency-picker.tsx";
import css from "./views/payment.css?inline";
import { CopyRow, QrCode } from "./views/payment.tsx";

export function TopUp({
  api,
  token,
  i18n,
  emit,
}: {
  api: CheckoutApi;
  token: string | null;
  i18n: Translator;
  emit: Emit;
}) {
  const { t } = i18n;
  const [deposit, setDeposit] = useState<DepositSnapshot | null>(null);
  const [currencies, setCurrencies] = useState<CryptoCurrency[] | null>(null);
  const [error, setError] = useState<string | null>(token ? null : "missing_token");
  const [qrReady, setQrReady] = useState(false);
  const [busy, setBusy] = useState(false);
  /** The currency of the last request, for "Retry". */
  const [asked, setAsked] = useState<string>();
  const stop = useRef<() => void>(() => {});
  const shown = useRef<DepositSnapshot | null>(null);
  /** Bumped on unmount and token change: answers to an older generation are dropped. */
  const generation = useRef(0);
  const inFlight = useRef(false);

  const accept = (next: DepositSnapshot) => {
    const prev = shown.current;
    if (!supersedes(prev, next)) return;
    shown.current = next;
    setDeposit(next);
    if (isNewState(prev, next)) emit("checkout:status", next);
    if (next.status === "completed" && prev?.status !== "completed") emit("checkout:paid", next);
  };
  const fail = (e: unknown) => setError(reportFailure(emit, e, (code) => t(messageFor(code))));
  const open = (code?: string) => {
    if (!token || inFlight.current) return;
    inFlight.current = true;
    const mine = generation.current;
    setBusy(true);
    setError(null);
    setAsked(code);
    api
      .call<DepositSnapshot>("/v1/deposits", code ? { token, cryptoCurrencyCode: code } : { token })
      .then((first) => {
        if (mine !== generation.current) return;
        accept(first);
        const deposit = `/v1/deposits/${encodeURIComponent(first.id)}`;
        if (!first.final)
          stop.current = follow(
            `${api.base}${deposit}/events`,
            () => api.call<DepositSnapshot>(deposit),
            accept,
            fail,
          );
      }, fail)
      .finally(() => {
        inFlight.current = false;
        setBusy(false);
      });
  };

  useEffect(() => {
    if (!token) {
      fail(new ApiFailure("missing_token", "<crypto-checkout> has no token attribute."));
      return;
    }
    loadQrEncoder(api.base).then(() => setQrReady(true));
    const fixed = fixedCurrency(token);
    if (fixed) open(fixed);
    else api.currencies().then(setCurrencies, () => setCurrencies([]));
    return () => {
      generation.current++;
      stop.current();
    };
  }, [token]);

  const problem = error ? (
    <p class="error" role="alert">
      {t(messageFor(error), { code: "", network: "" })}
    </p>
  ) : null;
  if (!deposit) {
    return (
      <div class="card">
        {problem}
        {error && TRANSIENT.has(error) ? (
          <button type="button" class="primary" disabled={busy} onClick={() => open(asked)}>
            {t("retry")}
          </button>
        ) : error ? null : currencies ? (
          <>
            <h2>{t("topUpChoose")}</h2>
            <CurrencyPicker currencies={currencies} i18n={i18n} busy={busy} onPick={open} />
          </>
        ) : (
          <p class="muted">{t("loading")}</p>
        )}
      </div>
    );
  }
  const d = deposit;
  const code = d.cryptoCurrencyCode.split("_")[0] ?? d.cryptoCurrencyCode;
  const fmt = (v: string) => formatCrypto(v, d.decimalPlaces, i18n.locale);
  const minimum = maxDecimal(d.minDepositAmount, d.minimumAmount);
  const statusText: Record<string, string> = {
    created: t("topUpWaiting"),
    processing: t("topUpProcessing"),
    suspended: t("statusSuspended"),
    failed: t("topUpFailed"),
    expired: t("topUpExpired"),
    cancelled: t("topUpCancelled"),
  };
  const s = d.settlement;
  const link = walletLink(d.walletUri);
  return (
    <div class="card" data-qr={qrReady ? "ready" : "loading"}>
      {/* The payment panel's stylesheet: loaded with this view's chunk, not with widget.js. */}
      <style>{css}</style>
      {d.sandbox ? (
        <p class="banner" role="note">
          {t("testMode")}
        </p>
      ) : null}
      <p class="merchant">{d.displayName}</p>
      <h2>{t("topUpTitle", { code: d.currencyName, network: d.networkName })}</h2>
      <p class={`status status-${d.status === "completed" ? "paid" : d.status}`}>
        {s
          ? t("topUpCompleted", { net: fmt(s.net), code })
          : (statusText[d.status] ?? t("topUpWaiting"))}
      </p>
      {problem}
      {s ? (
        <p class="muted">
          {t("topUpBreakdown", {
            received: fmt(s.received),
            commission: fmt(s.commission),
            fee: fmt(s.networkFee),
            net: fmt(s.net),
            code,
          })}
        </p>
      ) : null}
      {!d.final ? (
        <section class="payment">
          <QrCode
            text={link ?? d.address}
            label={t("qrLabel", { amount: "", code, network: d.networkName, address: d.address })}
            ready={qrReady}
            failed={t("qrFailed")}
          />
          <div class="details">
            <CopyRow
              label={t("topUpSendTo")}
              copyLabel={t("copyAddress")}
              value={d.address}
              shown={d.address}
              i18n={i18n}
            />
            {link ? (
              <a class="button" href={link}>
                {t("openWallet")}
              </a>
            ) : null}
            <p class="warning">{t("sendOnly", { code: d.currencyName, network: d.networkName })}</p>
            <p>{t("topUpMinimum", { amount: fmt(minimum), code })}</p>
            <p class="muted">{t("topUpFee", { percent: d.depositCommissionPercent })}</p>
            {d.depositNetworkFee ? (
              <p class="muted">
                {t("topUpNetworkFee", { amount: fmt(d.depositNetworkFee), code })}
              </p>
            ) : null}
          </div>
        </section>
      ) : null}
      <p class="sr-only" aria-live="polite">
        {s ? t("topUpCompleted", { net: fmt(s.net), code }) : statusText[d.status]}
      </p>
    </div>
  );
}
