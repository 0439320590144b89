/**
 * @module pay-page-view
 * The hosted payment page's HTML: before a choice, the currencies for this invoice (those below
 * the tenant's minimum shown but disabled); after it, exact amount, address, QR code and
 * countdown; after an outcome, where the payer goes next. A small inline script polls
 * `/pay/:id/status` every 2 s and reloads on a change, counts down, and sends the payer on
 * 3 s after an outcome (a link does the same at once). Every value is HTML-escaped.
 */
import { type CryptoCurrency, fiatCurrency } from "./currencies.ts";
import { type Decimal, plain } from "./decimal.ts";
import { qrPngDataUri } from "./qr-png.ts";
import type { InvoiceRecord } from "./state.ts";

/** One currency the payer may choose, with this invoice's amount in it. */
export interface PayOption {
  currency: CryptoCurrency;
  amount: Decimal;
  /** The tenant's minimum deposit; an amount below it cannot be chosen. */
  minimum: Decimal;
  available: boolean;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STATUS_TEXT: Record<InvoiceRecord["status"], string> = {
  created: "Waiting for your payment",
  processing: "Payment detected — waiting for confirmations",
  suspended: "Payment under review",
  paid: "Paid — thank you",
  overpaid: "Paid (more than needed)",
  partially_paid: "Partially paid",
  expired: "Expired",
  failed: "Failed",
  cancelled: "Cancelled",
};

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:30rem;margin:2rem auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.6rem;margin:.2rem 0}.muted{color:#5b6475}.banner{background:#fff4d6;padding:.5rem;border-radius:6px}
.status{font-weight:600}ul{list-style:none;padding:0}li{margin:.4rem 0}
button,.button{display:block;width:100%;text-align:left;padding:.7rem;border:1px solid #c9ced8;border-radius:8px;background:#fff;font:inherit;cursor:pointer;color:inherit;text-decoration:none}
button:disabled{opacity:.55;cursor:not-allowed}.primary{background:#2453d4;color:#fff;text-align:center}
code{word-break:break-all;font-size:.95rem}.error{color:#b3261e}img{display:block;margin:1rem auto;image-rendering:pixelated}`;

/** What a payer reads for a currency code: `USDT_TRC20` → `USDT` (the network is said beside it). */
const ticker = (code: string) => code.split("_")[0] ?? code;

async function payBlock(inv: InvoiceRecord): Promise<string> {
  const expected = inv.cryptoAmountExpected!;
  const received = inv.cryptoAmountReceived;
  const remaining = received?.gt("0") ? expected.minus(received) : expected;
  // The payer reads the ticker ("USDT"); the network is named on the page, never the internal
  // code ("USDT_TRC20").
  const code = esc(ticker(inv.cryptoCurrencyCode!));
  const address = esc(inv.address!);
  const qr = await qrPngDataUri(inv.address!, 5);
  return `<section aria-labelledby="pay-title"><h2 id="pay-title">Send ${received?.gt("0") ? "the remaining" : "exactly"}</h2>
<p><strong data-testid="pay-amount">${plain(remaining)} ${code}</strong></p>
<p>to <code data-testid="pay-address">${address}</code></p>
<img src="${qr}" alt="QR code of the address ${address}" width="160" height="160">
<p class="muted">Test network only. <span id="countdown" data-until="${esc(inv.expiresAt)}"></span></p></section>`;
}

function chooseBlock(options: readonly PayOption[], id: string): string {
  const items = options.map(({ currency: c, amount, minimum, available }) => {
    const label = `${esc(c.name)} · ${esc(c.network)} — ${plain(amount)} ${esc(ticker(c.code))}`;
    const why = available
      ? ""
      : `<br><small>Below the minimum of ${plain(minimum)} ${esc(ticker(c.code))}</small>`;
    return `<li><button name="cryptoCurrencyCode" value="${esc(c.code)}"${available ? "" : " disabled"}>${label}${why}</button></li>`;
  });
  return `<form method="post" action="/pay/${esc(id)}/currency" aria-labelledby="choose-title">
<h2 id="choose-title">Choose a currency</h2><ul>${items.join("")}</ul></form>`;
}

/**
 * The page for an invoice: choice, instructions or outcome, with the live-status script.
 * @example
 * c.html(await payPageHtml(inv, payOptions(inv), returnTarget(inv), new Date(), null));
 */
export async function payPageHtml(
  inv: InvoiceRecord,
  options: readonly PayOption[],
  returnTo: string | null,
  now: Date,
  error: string | null,
): Promise<string> {
  const open = inv.status === "created" && Date.parse(inv.expiresAt) > now.getTime();
  let body = "";
  if (open && inv.cryptoCurrencyCode === null) body = chooseBlock(options, inv.id);
  else if ((open || inv.status === "partially_paid") && inv.address && inv.cryptoAmountExpected)
    body = await payBlock(inv);
  if (returnTo) {
    body += `<p><a class="button primary" id="return" href="${esc(returnTo)}">Return to the shop</a></p>
<p class="muted">Returning you to the shop in a few seconds…</p>`;
  }
  const reference = inv.number ?? inv.orderId ?? inv.id;
  return `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><title>Pay invoice ${esc(reference)}</title>
<style>${STYLE}</style><main>
<p class="banner">Sandbox payment page — test networks only.</p>
<p class="muted">Invoice ${esc(reference)}${inv.description ? ` · ${esc(inv.description)}` : ""}</p>
<h1>${inv.amount.toFixed(fiatCurrency(inv.fiatCurrencyCode)?.decimalPlaces ?? 2)} ${esc(inv.fiatCurrencyCode)}</h1>
<p class="status" role="status" data-testid="pay-status" data-status="${esc(inv.status)}">${STATUS_TEXT[inv.status]}</p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}${body}
</main><script>
(() => {
  const status = ${JSON.stringify(inv.status)};
  const back = document.getElementById("return");
  if (back) setTimeout(() => location.assign(back.href), 3000);
  const el = document.getElementById("countdown");
  if (el) {
    const until = Date.parse(el.dataset.until);
    const tick = () => {
      const s = Math.max(0, Math.round((until - Date.now()) / 1000));
      el.textContent = "Expires in " + Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    };
    tick();
    setInterval(tick, 1000);
  }
  setInterval(async () => {
    const res = await fetch(location.pathname + "/status", { cache: "no-store" }).catch(() => null);
    const now = res && res.ok ? await res.json() : null;
    if (now && now.status !== status) location.reload();
  }, 2000);
})();
</script></html>`;
}
