/**
 * @module
 * The currency choice: the service's live list, grouped by network. Never a hardcoded list.
 * A currency the service refused for this order (`off`: code → error code) stays listed,
 * disabled, with the reason in place of its name.
 *
 * Shoppers read the service's currency `name` and the worker's one display name per network
 * (`networkName`), never internal codes; a network the worker does not know is listed under
 * the name the service gave it. Each button's accessible name is its visible text (the group's
 * legend names the network), so voice control can say what it sees.
 */
import type { CryptoCurrency } from "../../packages/contract/src/http-api.ts";
import { messageFor } from "../errors.ts";
import type { Translator } from "../i18n/index.ts";
import { safeUrl } from "../url.ts";

export function CurrencyPicker(props: {
  currencies: CryptoCurrency[];
  i18n: Translator;
  busy: boolean;
  off?: Record<string, string>;
  onPick: (code: string) => void;
}) {
  const { t } = props.i18n;
  if (props.currencies.length === 0) return <p class="note">{t("noCurrencies")}</p>;
  const networks = [...new Set(props.currencies.map((c) => c.networkName))];
  return (
    <section aria-labelledby="cc-pick">
      <h2 id="cc-pick" tabIndex={-1}>
        {t("chooseCurrency")}
      </h2>
      {networks.map((network) => (
        <fieldset class="group" key={network}>
          <legend>{network}</legend>
          <div class="choices">
            {props.currencies
              .filter((c) => c.networkName === network)
              .map((c) => {
                const refused = props.off?.[c.code];
                const why = refused && t(messageFor(refused));
                const icon = safeUrl(c.imageUrl);
                const ticker = c.code.split("_")[0] ?? c.code;
                // "BNB" named "BNB": said once ("BNB BNB" is noise to a screen reader).
                const name = why || (c.name !== ticker && c.name);
                return (
                  <button
                    type="button"
                    class="choice"
                    key={c.code}
                    disabled={props.busy || !!why}
                    onClick={() => props.onPick(c.code)}
                  >
                    {icon ? <img src={icon} alt="" width={20} height={20} /> : null}
                    <strong>{ticker}</strong>
                    {name && <span class="muted">{name}</span>}
                  </button>
                );
              })}
          </div>
        </fieldset>
      ))}
    </section>
  );
}
