/**
 * @module
 * Paying from the shopper's browser wallet, two ways, with where the flow is said in a live
 * region. Loaded on demand (`wallet.js`) when the shopper clicks a wallet button:
 * - `x402`: the snapshot's `x402` offer ("Pay from your wallet"): one signature, no gas
 *   (`wallet/pay.ts`);
 * - `invoice`: the invoice's own address on an EVM network ("Pay with a browser wallet" in the
 *   payment panel): one transaction of exactly what is still due (`wallet/invoice.ts`), then
 *   "sent, waiting for the network" until the snapshot moves (the worker learns of it from the
 *   service, as of any payment);
 * - no mode: only the line saying the last wallet payment failed (nothing was charged).
 *
 * Invariant: never a dead end. Every stop says what happened and offers a way on: *Try again*
 * (the same wallet; held back while the worker's `Retry-After` runs), *Choose another wallet*
 * (when there is another), and always *Pay another way* (back to the checkout), even while a
 * wallet is asked (a wallet may never answer). While a step is in flight no wallet can be
 * chosen, so nothing is signed or sent twice; once a transaction is sent, nothing more is
 * offered. Every stop also reaches the page as `checkout:error`.
 */
import { Component } from "preact";
import type { CheckoutSnapshot, CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import { walletTransfer } from "../../worker/lib/wallet/wallet-transfer.ts";
import { EXACT_EVM_REASONS } from "../../worker/lib/x402/protocol.ts";
import type { Emit } from "../events.ts";
import type { Translator } from "../i18n/index.ts";
import { discover, type Wallet } from "../wallet/discover.ts";
import { payInvoice } from "../wallet/invoice.ts";
import { type PayStep, payFromWallet } from "../wallet/pay.ts";
import { Stop } from "../wallet/stop.ts";
import css from "./wallet.css?inline";

export interface WalletPayProps {
  /** What is paid: the x402 offer, the invoice's address; none: the failed-payment line only. */
  mode?: "x402" | "invoice" | undefined;
  /** The snapshot shown: the checkout's id, its offer, its instructions, sandbox or not. */
  snapshot: CheckoutSnapshot;
  /** The invoice's currency (its token contract, if any), from the currency list. */
  currency?: CryptoCurrency | null | undefined;
  /** The worker's origin. */
  base: string;
  i18n: Translator;
  /** The worker's clock, ms (`server-clock.ts`): the signature's validity window runs on it. */
  now: () => number;
  /** The checkout's own words for a worker error code (`errors.ts`). */
  describe: (code: string) => string;
  /** A snapshot the worker answered with: the paid one, or one a refusal carried. */
  onSnapshot: (s: CheckoutSnapshot) => void;
  /** Back to the checkout (paid, or the shopper pays another way). */
  onClose: () => void;
  /** The element's events (`checkout:error` for every stop). */
  emit: Emit;
}

interface State {
  wallets: Wallet[];
  /** Discovery ended with no wallet at all. */
  none: boolean;
  chosen: Wallet | null;
  step: PayStep | null;
  stop: Stop | null;
  /** The worker asked to wait (`Retry-After`) before trying again. */
  waiting: boolean;
  /** The invoice's transaction was sent when the snapshot shown had this `seq`. */
  sent?: number;
}

/** A class, as every view on the in-page path: the chunk then carries no hooks runtime. */
export class WalletPay extends Component<WalletPayProps, State> {
  override state: State = {
    wallets: [],
    none: false,
    chosen: null,
    step: null,
    stop: null,
    waiting: false,
  };
  off = () => {};
  heading: HTMLElement | null = null;
  timer?: ReturnType<typeof setTimeout>;

  /** Discovery runs from the first mode on (the same instance may first be the note only). */
  listening = false;

  listen() {
    if (this.listening || !this.props.mode) return;
    this.listening = true;
    this.off = discover(
      (w) => this.setState((s) => ({ wallets: [...s.wallets, w] })),
      () => this.setState({ none: true }),
    );
    // The button that opened the flow is disabled now: focus goes to the flow's heading.
    this.focus();
  }

  override componentDidMount() {
    this.listen();
  }

  override componentDidUpdate(before: WalletPayProps) {
    const { mode, snapshot, onClose } = this.props;
    this.listen();
    // Closed back to the note (the same instance stays): the next flow starts afresh.
    if (before.mode && !mode)
      this.setState({ chosen: null, step: null, stop: null, sent: undefined });
    // Sent: the snapshot moving (the payment seen, the attempt changed) is the flow's end.
    const { sent } = this.state;
    if (mode && sent !== undefined && snapshot.seq !== sent) onClose();
  }

  override componentWillUnmount() {
    this.off();
    clearTimeout(this.timer);
  }

  pay = async (chosen: Wallet) => {
    const { props } = this;
    const s = props.snapshot;
    const p = s.attempt.payment;
    this.setState({ chosen, stop: null });
    try {
      if (props.mode === "invoice") {
        const transfer = p && walletTransfer(props.currency, p, s.sandbox);
        if (!transfer) throw new Stop("walletNotOffered");
        this.setState({ step: "wallet" });
        // In sandbox the network's name alone would name its main chain: the id tells them apart.
        const name = s.sandbox ? `${p.networkName} (${transfer.chainId})` : p.networkName;
        await payInvoice(chosen.provider, transfer, name);
        this.setState({ step: null, sent: s.seq });
        return;
      }
      const paid = await payFromWallet(
        props.base,
        s.id,
        s.x402,
        chosen.provider,
        props.now,
        (step) => this.setState({ step }),
      );
      props.onSnapshot(paid);
      props.onClose();
    } catch (e) {
      const stop = e instanceof Stop ? e : new Stop("walletFailed");
      if (stop.snapshot) props.onSnapshot(stop.snapshot);
      if (stop.wait)
        this.timer = setTimeout(() => this.setState({ waiting: false }), stop.wait * 1000);
      this.setState({ step: null, stop, waiting: stop.wait > 0 });
      this.focus();
      // The page hears it too: the worker's code, or the wallet step's (`walletDeclined` →
      // `wallet_declined`), with the shopper's words and what the wallet or worker said.
      const code = stop.code || (stop.key ?? "").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      const message = this.say(stop);
      const developerMessage = stop.values.reason ?? message;
      console.error(`[crypto-checkout] ${code}: ${developerMessage}`);
      props.emit("checkout:error", { code, message, developerMessage });
    }
  };

  /** A stop in the shopper's words. */
  say(stop: Stop): string {
    return stop.key ? this.props.i18n.t(stop.key, stop.values) : this.props.describe(stop.code);
  }

  /** Focus to the heading, so a keyboard path never drops to <body> when buttons go. */
  focus() {
    this.heading?.focus();
  }

  render() {
    const { i18n, onClose, mode, snapshot } = this.props;
    const { t } = i18n;
    const { wallets, none, chosen, step, stop, waiting, sent } = this.state;
    if (!mode) {
      // Only said while the offer stands (the order still payable): the checkout renders it so.
      const failed = snapshot.x402Payment;
      return failed?.status === "failed" ? (
        <p class="muted" role="status">
          {t(
            failed.errorReason === EXACT_EVM_REASONS.balance
              ? "walletLastFailedBalance"
              : "walletLastFailed",
          )}
        </p>
      ) : null;
    }
    const choose = !step && !stop && sent === undefined;
    return (
      <section class="wallet" aria-labelledby="cc-wallet">
        {/* Its own stylesheet: loaded with this view's chunk. */}
        <style>{css}</style>
        <h2
          id="cc-wallet"
          tabIndex={-1}
          ref={(h) => {
            this.heading = h;
          }}
        >
          {t(mode === "invoice" ? "walletInvoice" : "payFromWallet")}
        </h2>
        <p class="muted" role="status">
          {sent !== undefined
            ? t("walletSent")
            : step
              ? t(step === "send" ? "walletSending" : "walletCheck")
              : ""}
        </p>
        {stop ? (
          <>
            <p class="error" role="alert">
              {this.say(stop)}
            </p>
            {chosen ? (
              <button
                type="button"
                class="primary"
                disabled={waiting}
                onClick={() => this.pay(chosen)}
              >
                {t("tryAgain")}
              </button>
            ) : null}
            {wallets.length > 1 ? (
              <button type="button" class="link" onClick={() => this.setState({ stop: null })}>
                {t("walletOther")}
              </button>
            ) : null}
          </>
        ) : null}
        {choose && none && !wallets.length ? (
          <p class="error" role="alert">
            {t("walletNone")}
          </p>
        ) : null}
        {choose
          ? wallets.map((w) => (
              <button type="button" class="choice" key={w.id} onClick={() => this.pay(w)}>
                {w.icon ? <img src={w.icon} alt="" width={24} height={24} /> : null}
                <strong>{w.name ?? t("walletBrowser")}</strong>
              </button>
            ))
          : null}
        {/* Once sent, "pay another way" would invite paying twice: the snapshot closes this. */}
        {sent === undefined ? (
          <button type="button" class="link" onClick={onClose}>
            {t("walletBack")}
          </button>
        ) : null}
      </section>
    );
  }
}
