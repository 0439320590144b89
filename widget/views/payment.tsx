/**
 * @module
 * What to send, where: exact amount (the worker's string, never re-rounded), address, copy
 * buttons, QR code, wallet link, network warning and countdown.
 */
import type { PaymentInstructions } from "../../worker/api/contract.ts";
import { countdown, formatCrypto } from "../format.ts";
import type { Translator } from "../i18n/index.ts";
import { qrPath } from "../qr.ts";

/** A labelled value with a copy button. */
export function CopyRow(props: {
  label: string;
  value: string;
  shown: string;
  onCopy: (v: string) => void;
  copyLabel: string;
}) {
  return (
    <div class="copy-row">
      <span class="label">{props.label}</span>
      <code class="value">{props.shown}</code>
      <button
        type="button"
        class="secondary"
        aria-label={`${props.copyLabel}: ${props.label}`}
        onClick={() => props.onCopy(props.value)}
      >
        {props.copyLabel}
      </button>
    </div>
  );
}

/** The QR code of `text`; an empty framed box until the on-demand encoder has loaded. */
export function QrCode(props: { text: string; label: string }) {
  const qr = qrPath(props.text);
  return (
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
  /** Changes when the on-demand QR encoder arrives, so the code is drawn then. */
  qrReady: boolean;
  onCopy: (value: string) => void;
  onChange?: () => void;
}) {
  const { payment: p, i18n } = props;
  const { t } = i18n;
  const amount = props.partial ? p.remaining : p.amount;
  const code = p.cryptoCurrencyCode.split("_")[0] ?? p.cryptoCurrencyCode;
  const left = countdown(p.expiresAt, props.now);
  return (
    <section class="payment" aria-labelledby="cc-pay">
      <h2 id="cc-pay" tabIndex={-1}>
        {t("payTitle")}
      </h2>
      <QrCode
        text={p.walletUri}
        label={t("qrLabel", { amount, code, network: p.network, address: p.address })}
      />
      <div class="details">
        <CopyRow
          label={props.partial ? t("sendRemaining") : t("sendExactly")}
          value={amount}
          shown={`${formatCrypto(amount, p.decimalPlaces, i18n.locale)} ${code}`}
          onCopy={props.onCopy}
          copyLabel={t("copy")}
        />
        <CopyRow
          label={t("toAddress")}
          value={p.address}
          shown={p.address}
          onCopy={props.onCopy}
          copyLabel={t("copy")}
        />
        <a class="button" href={p.walletUri}>
          {t("openWallet")}
        </a>
        <p class="warning">{t("sendOnly", { code: p.cryptoCurrencyCode, network: p.network })}</p>
        <p class="muted">
          {left ? t("expiresIn", { time: left }) : p.expiresAt ? t("expired") : ""}
        </p>
        {props.onChange ? (
          <button type="button" class="link" onClick={props.onChange}>
            {t("changeCurrency")}
          </button>
        ) : null}
      </div>
    </section>
  );
}
