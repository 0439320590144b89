/**
 * @module
 * Hosted mode (the service's payment page): one clear primary action that opens the page in a
 * new tab, and, on demand, the page's link as a QR code for paying from a phone (the encoder
 * loads only when asked for). Live status, and the currency, amount and address once the payer
 * chose on the page, are the checkout's own (same as in-page mode).
 *
 * `target="_blank"` implies `noopener` in every current browser, so the page cannot reach back.
 *
 * Layout reuses the payment panel's classes and stylesheet (a grid; QR beside its caption).
 *
 * Invariant: the page's URL is linked or encoded only when `safeUrl` accepts it (https, or
 * loopback in development); otherwise there is nothing to open and nothing is drawn.
 *
 * Invariant: one QR code at a time. Once the payer chose on the page (`chosen`: the payment
 * panel below shows the payment's own QR code), the page's link is no longer offered as a code:
 * two codes one above the other would leave the payer guessing which one pays.
 */
import { Component } from "preact";
import type { Translator } from "../i18n/index.ts";
import { loadQrEncoder } from "../qr.ts";
import { safeUrl } from "../url.ts";
import css from "./payment.css?inline";
import { QrCode } from "./payment.tsx";

/** A class, as every view on the in-page path: its chunk then carries no hooks runtime. */
export class HostedPanel extends Component<
  { url: string; base: string; i18n: Translator; chosen?: boolean },
  // null: not asked; false: loading; true: loading ended (drawn, or the failure text).
  { phone: boolean | null }
> {
  override state = { phone: null as boolean | null };
  render() {
    const { props } = this;
    const { phone } = this.state;
    const setPhone = (next: boolean) => this.setState({ phone: next });
    const { t } = props.i18n;
    const url = safeUrl(props.url);
    return (
      <div class="hosted details">
        {/* Its own stylesheet (the payment panel's): loaded with this view's chunk. */}
        <style>{css}</style>
        <p>{t("hostedIntro")}</p>
        {url ? (
          <>
            <a class="button" href={url} target="_blank" rel="noopener">
              {t("openPaymentPage")}
            </a>
            {props.chosen ? null : phone === null ? (
              <button
                type="button"
                class="link"
                onClick={() => {
                  setPhone(false);
                  loadQrEncoder(props.base).then(() => setPhone(true));
                }}
              >
                {t("payOnPhone")}
              </button>
            ) : (
              <div class="phone payment">
                <QrCode text={url} label={t("phoneQr")} ready={phone} failed={t("qrFailed")} />
                <p class="muted" aria-hidden="true">
                  {t("phoneQr")}
                </p>
              </div>
            )}
          </>
        ) : null}
      </div>
    );
  }
}
