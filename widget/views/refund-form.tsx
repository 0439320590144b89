/**
 * @module
 * The shopper's refund address (partial or over-payment), checked live with the worker's own
 * rules (`/address.js`: mask, checksum, test network vs mainnet); the worker checks again.
 *
 * Invariant: checks are async (checksums hash), so only the newest check may speak; an older
 * one finishing later is ignored, never shown over the address now in the field.
 */
import { Component } from "preact";
import type { CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import { verifyAddress } from "../address-check.ts";
import type { Translator } from "../i18n/index.ts";
import css from "./refund-form.css?inline";

interface RefundFormProps {
  /** Where the on-demand address check (`/address.js`) is served. */
  base: string;
  currency: CryptoCurrency;
  /** Sandbox mode: test-network addresses only. */
  sandbox: boolean;
  saved: string | null;
  i18n: Translator;
  /** Resolves false when the worker refused the address as invalid. */
  onSave: (address: string) => Promise<boolean>;
}

/** A class, as every view on the in-page path: its chunk then carries no hooks runtime. */
export class RefundForm extends Component<
  RefundFormProps,
  { value: string; problem: string | null }
> {
  /** Bumped per check: only the newest may speak. */
  latest = 0;

  constructor(props: RefundFormProps) {
    super(props);
    this.state = { value: props.saved ?? "", problem: null };
  }

  render() {
    const { props } = this;
    const { value, problem } = this.state;
    const setValue = (next: string) => this.setState({ value: next });
    const setProblem = (next: string | null) => this.setState({ problem: next });
    const { t } = props.i18n;
    const { currency } = props;
    // "Your USDT address on TRON": the ticker and the network's display name, never internal codes.
    const names = {
      code: currency.code.split("_")[0] ?? currency.code,
      network: currency.networkName,
    };
    const verify = async (address: string) => {
      const mine = ++this.latest;
      const verdict = await verifyAddress(props.base, currency, address, props.sandbox);
      if (mine !== this.latest) return false;
      const message =
        verdict === "ok"
          ? null
          : verdict === "checksum"
            ? t("addressChecksum")
            : verdict === "network" && props.sandbox
              ? t("addressTestnet")
              : t("addressInvalid", names);
      setProblem(message);
      return message === null;
    };
    return (
      <form
        class="refund"
        onSubmit={async (event) => {
          event.preventDefault();
          if ((await verify(value)) && !(await props.onSave(value.trim())))
            setProblem(t("addressInvalid", names));
        }}
      >
        {/* Its own stylesheet: loaded with this view's chunk, not with widget.js. */}
        <style>{css}</style>
        <label for="cc-refund">{t("refundTitle")}</label>
        <p class="muted" id="cc-refund-help">
          {t("refundHelp", names)}
        </p>
        <input
          id="cc-refund"
          value={value}
          autoComplete="off"
          spellcheck={false}
          aria-invalid={problem ? "true" : "false"}
          aria-describedby={problem ? "cc-refund-error" : "cc-refund-help"}
          onInput={(event) => {
            const next = (event.target as HTMLInputElement).value;
            setValue(next);
            if (next.trim().length >= 20) void verify(next);
            else {
              this.latest++;
              setProblem(null);
            }
          }}
        />
        {problem ? (
          <p class="error" id="cc-refund-error" role="alert">
            {problem}
          </p>
        ) : null}
        {props.saved && props.saved === value.trim() ? <p class="ok">{t("refundSaved")}</p> : null}
        <button type="submit" class="secondary">
          {t("refundSave")}
        </button>
      </form>
    );
  }
}
