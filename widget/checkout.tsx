/**
 * @module
 * The shopper's checkout: open → choose currency → pay → live status, in one component.
 *
 * State flows one way: every answer from the worker (POST, GET, SSE) is a full
 * `CheckoutSnapshot`, and the view is a function of the newest one. A snapshot with the same
 * or a lower `seq` than the one shown is a duplicate or stale and is ignored (`snapshots.ts`),
 * so a slow POST answer cannot undo a pushed update.
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
import { Component, createRef } from "preact";
import type { CheckoutSnapshot, CryptoCurrency } from "../packages/contract/src/http-api.ts";
import { ApiFailure, type CheckoutApi } from "./api.ts";
import {
  type CheckoutAction,
  type CheckoutState,
  checkoutReducer,
  ENDED,
  initialState,
  isLater,
  isOverpaid,
  showsInstructions,
  stepOf,
  x402Pending,
} from "./checkout-state.ts";
import { messageFor, TRANSIENT } from "./errors.ts";
import type { Emit } from "./events.ts";
import { formatCrypto, formatFiat, secondsLeft } from "./format.ts";
import type { Translator } from "./i18n/index.ts";
import { follow } from "./live.ts";
import { loadQrEncoder } from "./qr.ts";
import { reportFailure } from "./report.ts";
import { serverClock } from "./server-clock.ts";
import { isNewState, supersedes } from "./snapshots.ts";
import { CurrencyPicker } from "./views/currency-picker.tsx";
import { HostedPanel } from "./views/hosted.tsx";
import { LaterNote, laterReady, laterStatus } from "./views/later.tsx";
import { PaymentPanel } from "./views/payment.tsx";
import { RefundForm } from "./views/refund-form.tsx";
import { WalletPay } from "./views/wallet.tsx";

export interface CheckoutProps {
  api: CheckoutApi;
  token: string | null;
  i18n: Translator;
  emit: Emit;
}

/** The status line: a fresh attempt's here, the later states' from `views/later.tsx`. */
function statusText(s: CheckoutSnapshot, i18n: Translator): string {
  if (!s.final && x402Pending(s)) return i18n.t("walletConfirming");
  if (isLater(s)) return laterStatus(s, i18n);
  return i18n.t(s.attempt.payment ? "statusWaiting" : "statusNew");
}

/**
 * What the view holds: the reducer's state, the QR encoder's readiness, the worker's time and
 * which wallet flow (`views/wallet.tsx`) is open: the x402 offer's, or the invoice's own.
 */
interface Local extends CheckoutState {
  qrReady: boolean;
  now: number;
  wallet?: "x402" | "invoice" | undefined;
}

/**
 * A class, not hooks: the script-tag bundle then carries no hooks runtime (the view chunks
 * that use hooks bring it, see `scripts/build-widget.ts`). What hooks did, here:
 * `componentDidMount`/`componentDidUpdate` run `settle` after each commit (focus, the QR
 * encoder, the ask at zero), and the checkout is (re)opened on mount and whenever `token` or
 * `opened` (Retry) changes, closing the previous one first.
 */
export class Checkout extends Component<CheckoutProps, Local> {
  clock = serverClock();
  /** The newest snapshot accepted (`snapshots.ts`), ahead of the rendered state. */
  shown: CheckoutSnapshot | null = null;
  root = createRef<HTMLDivElement>();
  /** The selector of what takes focus after the next commit. */
  focusNext: string | null = null;
  /** Closes the open checkout's stream, clock tick and pending answers. */
  close = () => {};
  qrAsked = false;
  /** The `expiresAt` the checkout was read again for, at zero. */
  askedAt: string | null = null;

  constructor(props: CheckoutProps) {
    super(props);
    this.state = { ...initialState(props.token), qrReady: false, now: Date.now() };
  }

  dispatch = (action: CheckoutAction) => this.setState((s) => checkoutReducer(s, action));

  accept = (next: CheckoutSnapshot) => {
    const { clock } = this;
    // Any answer bounds the worker's clock, a duplicate too (the largest bound wins).
    clock.see(next.updatedAt);
    this.setState({ now: clock.now() });
    // A later state shows with its words or not at all (the script-tag bundle fetches them
    // with payment.js; see `views/later.tsx`). Waiting keeps the order: `seq` still decides.
    const ready = isLater(next) && laterReady();
    if (ready) {
      void ready.then(() => this.accept(next));
      return;
    }
    const prev = this.shown;
    if (!supersedes(prev, next)) return;
    this.shown = next;
    const news = isNewState(prev, next);
    const { emit } = this.props;
    // Announced in the language of each render (a locale switch re-renders with new props).
    this.dispatch({ type: "snapshot", snapshot: next, announce: news });
    if (news) {
      emit("checkout:status", next);
      if (next.final && !prev?.final) emit("checkout:paid", next);
      if (ENDED.has(next.attempt.status) && prev?.attempt.status !== next.attempt.status)
        emit("checkout:expired", next);
    }
  };

  /** Reports a failure and shows it; `picked` is the currency a refused lock asked for. */
  fail = (e: unknown, picked?: string) =>
    this.dispatch({
      type: "failed",
      error: reportFailure(this.props.emit, e, (code) => this.props.i18n.t(messageFor(code))),
      picked,
    });

  /** Runs a shopper's action; `picked` is the currency a lock asked for. */
  run = async (action: () => Promise<CheckoutSnapshot>, picked?: string) => {
    this.dispatch({ type: "busy", busy: true });
    try {
      this.accept(await action());
    } catch (e) {
      this.focusNext = null;
      if (e instanceof ApiFailure && e.code === "lock_unsupported")
        this.dispatch({ type: "hosted", hostedOnly: true });
      else this.fail(e, picked);
    } finally {
      this.dispatch({ type: "busy", busy: false });
    }
  };

  open() {
    const { api, token } = this.props;
    const { accept, fail, dispatch, clock } = this;
    if (!token) {
      fail(new ApiFailure("missing_token", "<crypto-checkout> has no token attribute."));
      return;
    }
    dispatch({ type: "failed", error: null });
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
            // Back from down also clears a "cannot reach" shown (the reducer's `link`).
            (up) => dispatch({ type: "link", down: !up }),
          );
        // Also in hosted mode: the refund form needs the currency's addressMask.
        const listed = (currencies: CryptoCurrency[]) =>
          dispatch({ type: "currencies", currencies });
        api.currencies().then(listed, () => listed([]));
      })
      .catch(fail);
    const tick = setInterval(() => this.setState({ now: clock.now() }), 1000);
    this.close = () => {
      cancelled = true;
      stop();
      clearInterval(tick);
    };
  }

  /** After each commit: focus, the QR encoder, and at zero one read of the checkout. */
  settle() {
    const target = this.focusNext && this.root.current?.querySelector<HTMLElement>(this.focusNext);
    if (target) {
      this.focusNext = null;
      target.focus();
    }
    const { snapshot, now } = this.state;
    const { api } = this.props;
    // The encoder loads once any payment shows: in-page, or hosted after a pick on the service's page.
    if (snapshot?.attempt.payment && !this.qrAsked) {
      this.qrAsked = true;
      loadQrEncoder(api.base).then(() => this.setState({ qrReady: true }));
    }
    // At zero, ask once what the service made of the attempt (expired → "Try again").
    const closes = snapshot?.attempt.payment?.expiresAt ?? null;
    const closed = closes && secondsLeft(closes, now) === null ? closes : null;
    if (closed !== this.askedAt) {
      this.askedAt = closed;
      if (closed && snapshot) api.get(snapshot.id).then(this.accept, () => {});
    }
  }

  override componentDidMount() {
    this.open();
    this.settle();
  }

  override componentDidUpdate(before: CheckoutProps, was: Local) {
    if (before.token !== this.props.token || was.opened !== this.state.opened) {
      this.close();
      this.open();
    }
    this.settle();
  }

  override componentWillUnmount() {
    this.close();
  }

  render() {
    const { api, i18n } = this.props;
    const { t } = i18n;
    const { state, dispatch, run } = this;
    const { snapshot, error, busy, currencies, now, qrReady } = state;
    const step = stepOf(state);

    if (!snapshot) {
      // Steps `loading` and `unavailable`.
      return (
        <div class="card" aria-busy={!error}>
          {error ? <Problem code={error} i18n={i18n} /> : <p class="muted">{t("loading")}</p>}
          {error && TRANSIENT.has(error) ? (
            <button type="button" class="primary" onClick={() => dispatch({ type: "reopen" })}>
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
    const inPage = s.mode === "in-page" && !state.hostedOnly;
    const instructions = p && showsInstructions(state, step);

    return (
      <div class="card" ref={this.root}>
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
        {state.down && !s.final ? (
          <p class="muted" role="status">
            {t("reconnecting")}
          </p>
        ) : null}
        {error ? <Problem code={error} i18n={i18n} /> : null}

        {step === "picker" ? (
          currencies ? (
            <CurrencyPicker
              currencies={currencies}
              i18n={i18n}
              busy={busy}
              off={state.off}
              onPick={(c) => {
                this.focusNext = "#cc-pay";
                void run(() => api.lock(s.id, c), c).then(() =>
                  dispatch({ type: "choose", choosing: false }),
                );
              }}
            />
          ) : (
            <p class="muted">{t("loading")}</p>
          )
        ) : null}

        {step === "hosted" ? (
          <HostedPanel
            url={s.attempt.paymentPageUrl}
            base={api.base}
            i18n={i18n}
            chosen={!!instructions}
          />
        ) : null}

        {p && instructions ? (
          <PaymentPanel
            payment={p}
            partial={status === "partially_paid"}
            i18n={i18n}
            now={now}
            qrReady={qrReady}
            // The invoice paid from a browser wallet needs its currency's token contract.
            onWallet={
              lockedCurrency && !state.wallet
                ? () => this.setState({ wallet: "invoice" })
                : undefined
            }
            onChange={
              step === "instructions" && status === "created" && !/[1-9]/.test(p.received)
                ? () => {
                    this.focusNext = "#cc-pick";
                    dispatch({ type: "choose", choosing: true });
                  }
                : undefined
            }
          />
        ) : null}

        {step === "retry" ? (
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={() => {
              // Hosted mode has no currency list: the payment page link comes back instead.
              this.focusNext = inPage ? "#cc-pick" : ".hosted a";
              void run(() => api.retry(s.id));
            }}
          >
            {t("tryAgain")}
          </button>
        ) : null}

        {/* Paying from the shopper's wallet (x402), in-page and hosted alike, while offered and
            no other payment is under way; a flow (this one, or the invoice's from the payment
            panel), once opened, stays until it closes. Beside the button, while offered: the
            last wallet payment failed (the chunk says so). */}
        {(s.x402 && /^(picker|instructions|hosted|retry)$/.test(step)) || state.wallet ? (
          <>
            {s.x402 ? (
              <button
                type="button"
                class="choice"
                disabled={busy || !!state.wallet}
                onClick={() => this.setState({ wallet: "x402" })}
              >
                <strong>{t("payFromWallet")}</strong>
                <span class="muted">
                  {t("walletAmount", {
                    amount: formatCrypto(s.x402.amount, s.x402.decimals, i18n.locale),
                    code: s.x402.symbol,
                    network: s.x402.chainName,
                  })}
                </span>
              </button>
            ) : null}
            {(state.wallet || s.x402Payment?.status === "failed") && !s.final ? (
              <WalletPay
                mode={state.wallet}
                snapshot={s}
                currency={lockedCurrency}
                emit={this.props.emit}
                base={api.base}
                i18n={i18n}
                now={this.clock.now}
                describe={(code) => t(messageFor(code))}
                onSnapshot={this.accept}
                onClose={() => this.setState({ wallet: undefined })}
              />
            ) : null}
          </>
        ) : null}

        {p && isLater(s) ? (
          <LaterNote snapshot={s} payment={p} wantsRefund={wantsRefund} i18n={i18n} />
        ) : null}

        {/* The refund form, unless the excess is too small to send back (`LaterNote` says so). */}
        {wantsRefund && lockedCurrency && !(p?.refund && !p.refund.possible) ? (
          <RefundForm
            base={api.base}
            currency={lockedCurrency}
            sandbox={s.sandbox}
            saved={s.refundAddress?.address ?? null}
            i18n={i18n}
            onSave={(address) =>
              api.refundAddress(s.id, lockedCurrency.code, address).then(
                (next) => {
                  this.accept(next);
                  return true;
                },
                (e: unknown) => {
                  // The worker's own address check speaks next to the field, not as a page error.
                  if (e instanceof ApiFailure && e.code === "invalid_address") return false;
                  this.fail(e);
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
          {state.announce && statusText(state.announce, i18n)}
        </p>
      </div>
    );
  }
}

function Problem({ code, i18n }: { code: string; i18n: Translator }) {
  return (
    <p class="error" role="alert">
      {i18n.t(messageFor(code), { code: "", network: "" })}
    </p>
  );
}
