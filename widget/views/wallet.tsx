/**
 * @module
 * "Pay from your wallet" (x402): the browser's wallets to choose from, then one signature in the
 * chosen one, with where the flow is said in a live region. Loaded on demand (`wallet.js`) when
 * the shopper clicks the button widget.js shows for the snapshot's `x402` offer; the flow itself
 * is `wallet/pay.ts`.
 *
 * Invariant: never a dead end. Every stop says what happened and offers a way on: *Try again*
 * (the same wallet; held back while the worker's `Retry-After` runs), *Choose another wallet*
 * (when there is another), and always *Pay another way* (back to the checkout), even while a
 * wallet is asked (a wallet may never answer). While a step is in flight no wallet can be
 * chosen, so nothing is signed or sent twice.
 */
import { Component } from "preact";
import type { CheckoutSnapshot } from "../../worker/lib/api/contract.ts";
import type { Translator } from "../i18n/index.ts";
import { discover, type Wallet } from "../wallet/discover.ts";
import { type PayStep, payFromWallet } from "../wallet/pay.ts";
import { Stop } from "../wallet/stop.ts";
import css from "./wallet.css?inline";

export interface WalletPayProps {
  /** The checkout's id and the worker's origin. */
  id: string;
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

  override componentDidMount() {
    this.off = discover(
      (w) => this.setState((s) => ({ wallets: [...s.wallets, w] })),
      () => this.setState({ none: true }),
    );
    // The button that opened the flow is disabled now: focus goes to the flow's heading.
    this.focus();
  }

  override componentWillUnmount() {
    this.off();
    clearTimeout(this.timer);
  }

  pay = async (chosen: Wallet) => {
    const { props } = this;
    this.setState({ chosen, stop: null });
    try {
      const paid = await payFromWallet(props.base, props.id, chosen.provider, props.now, (step) =>
        this.setState({ step }),
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
    }
  };

  /** Focus to the heading, so a keyboard path never drops to <body> when buttons go. */
  focus() {
    this.heading?.focus();
  }

  render() {
    const { i18n, describe, onClose } = this.props;
    const { t } = i18n;
    const { wallets, none, chosen, step, stop, waiting } = this.state;
    const choose = !step && !stop;
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
          {t("payFromWallet")}
        </h2>
        <p class="muted" role="status">
          {step ? t(step === "send" ? "walletSending" : "walletCheck") : ""}
        </p>
        {stop ? (
          <>
            <p class="error" role="alert">
              {stop.key ? t(stop.key, stop.values) : describe(stop.code)}
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
        <button type="button" class="link" onClick={onClose}>
          {t("walletBack")}
        </button>
      </section>
    );
  }
}
