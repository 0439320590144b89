/**
 * @module
 * What to send, where: exact amount (the worker's string, never re-rounded), address, copy
 * buttons, QR code, wallet link, network warning and countdown. Once the countdown reaches
 * zero only the "window closed" message stays: paying to a closed window would go astray.
 * The countdown runs on the worker's clock (`now` is the device clock corrected by the offset
 * `server-clock.ts` measured), so a wrong device clock neither closes nor stretches the window.
 * A network without a payment URI (Tron, one the worker does not know) gets no wallet link: the
 * QR code then carries the bare address, and a link is never relative (`walletLink`).
 */
import { Component } from "preact";
import type { PaymentInstructions } from "../../packages/contract/src/http-api.ts";
import { countdown, formatCrypto, minutesLeft } from "../format.ts";
import { isolateAmounts } from "../i18n/bidi.ts";
import type { Translator } from "../i18n/index.ts";
import { plural } from "../i18n/plural.ts";
import { qrPath } from "../qr.ts";
import { walletLink } from "../url.ts";
import css from "./payment.css?inline";

/**
 * A labelled value with a copy button named for what it copies ("Copy the amount"), never
 * "Copy: <label>". The outcome (copied, or the clipboard refused: select the text instead) shows
 * beside the button in a polite live region, for eyes and ears alike, in the language of each
 * render (the key is kept, not its text). A class, as every view on the in-page path: their
 * chunks then carry no hooks runtime.
 *
 * Invariant: the clipboard gets `value`, the plain exact string, never `shown` (localised).
 */
export class CopyRow extends Component<
  { label: string; copyLabel: string; value: string; shown: string; i18n: Translator },
  { note: "copied" | "copyFailed" | null; again: boolean }
> {
  override state = { note: null as "copied" | "copyFailed" | null, again: false };
  render() {
    const { props } = this;
    const { t } = props.i18n;
    const { note, again } = this.state;
    return (
      <div class="copy-row">
        <span class="label">{props.label}</span>
        <code class="value">{props.shown}</code>
        <button
          type="button"
          class="secondary"
          aria-label={props.copyLabel}
          onClick={async () => {
            let said: "copied" | "copyFailed" = "copyFailed";
            try {
              await navigator.clipboard.writeText(props.value);
              said = "copied";
            } catch {
              // Blocked (permissions, http page) or no clipboard API: the value stays selectable.
            }
            // A changed string makes screen readers announce a second copy too.
            this.setState((prev) => ({ note: said, again: prev.note === said && !prev.again }));
          }}
        >
          {t("copy")}
        </button>
        <span class="label" aria-live="polite">
          {note ? `${t(note)}${again ? "\u00a0" : ""}` : ""}
        </span>
      </div>
    );
  }
}

/**
 * The QR code of `text`: an empty framed box while the on-demand encoder loads, the `failed`
 * text once loading ended without it (the amount and address stay copyable).
 */
export function QrCode(props: { text: string; label: string; ready: boolean; failed: string }) {
  const qr = qrPath(props.text);
  return !qr && props.ready ? (
    <p class="muted">{props.failed}</p>
  ) : (
    <div class="qr" role="img" aria-label={props.label}>
      {qr ? (
        <svg viewBox={`0 0 ${qr.size} ${qr.size}`} aria-hidden="true" shape-rendering="crispEdges">
          <rect width={qr.size} height={qr.size} fill="#fff" />
          <path d={qr.path} fill="#000" />
        </svg>
      ) : null}
    </div>
  );
}

export function PaymentPanel(props: {
  payment: PaymentInstructions;
  partial: boolean;
  i18n: Translator;
  now: number;
  /** True once loading the on-demand QR encoder ended (loaded or not), so the code is drawn then. */
  qrReady: boolean;
  onChange?: () => void;
  /** Opens paying this invoice from a browser wallet (offered for EVM addresses only). */
  onWallet?: (() => void) | undefined;
}) {
  const { payment: p, i18n } = props;
  const { t } = i18n;
  const amount = props.partial ? p.remaining : p.amount;
  const code = p.cryptoCurrencyCode.split("_")[0] ?? p.cryptoCurrencyCode;
  const left = countdown(p.expiresAt, props.now, i18n.locale);
  const minutes = minutesLeft(p.expiresAt, props.now) ?? 0;
  const link = walletLink(p.walletUri);
  return (
    <>
      {/* Its own stylesheet: loaded with this view's chunk, not with widget.js. */}
      <style>{css}</style>
      <section class="payment" aria-labelledby="cc-pay">
        <h2 id="cc-pay" tabIndex={-1}>
          {t("payTitle")}
        </h2>
        {p.expiresAt && !left ? (
          <p class="muted">{t("expired")}</p>
        ) : (
          <>
            <QrCode
              text={link ?? p.address}
              label={t("qrLabel", { amount, code, network: p.networkName, address: p.address })}
              ready={props.qrReady}
              failed={t("qrFailed")}
            />
            <div class="details">
              <CopyRow
                label={props.partial ? t("sendRemaining") : t("sendExactly")}
                copyLabel={t("copyAmount")}
                value={amount}
                shown={isolateAmounts(
                  `${formatCrypto(amount, p.decimalPlaces, i18n.locale)} ${code}`,
                  i18n.dir,
                )}
                i18n={i18n}
              />
              <CopyRow
                label={t("toAddress")}
                copyLabel={t("copyAddress")}
                value={p.address}
                shown={p.address}
                i18n={i18n}
              />
              {link ? (
                <a class="button" href={link}>
                  {t("openWallet")}
                </a>
              ) : null}
              {/* An EVM address is an EVM network's (the networks' table stays in wallet.js, which
                  says so if it does not know this one): every shopper downloads this chunk. */}
              {props.onWallet && /^0x[0-9a-fA-F]{40}$/.test(p.address) ? (
                <button type="button" class="secondary" onClick={props.onWallet}>
                  {t("walletInvoice")}
                </button>
              ) : null}
              <p class="warning">
                {t("sendOnly", { code: p.currencyName, network: p.networkName })}
              </p>
              {left ? (
                // Screen readers hear "14 minutes left to pay", not the clock's digits.
                <p class="muted">
                  <span aria-hidden="true">{t("expiresIn", { time: left })}</span>
                  <span class="sr-only">{plural(i18n, "minutesLeft", minutes)}</span>
                </p>
              ) : null}
              {props.onChange ? (
                <button type="button" class="link" onClick={props.onChange}>
                  {t("changeCurrency")}
                </button>
              ) : null}
            </div>
          </>
        )}
      </section>
    </>
  );
}
