/**
 * @module
 * Renders the merchant side: the worker's order ledger (whatever its exact shape, known
 * fields first) and the notifications the merchant backend received.
 */
import { h } from "./dom.js";

const STATE_KEYS = ["orderState", "state", "status"];
const isScalar = (v) => v === null || ["string", "number", "boolean"].includes(typeof v);
const humanize = (key) => key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

function pill(state) {
  return h("span", { class: "pill", "data-status": state }, String(state).replace(/_/g, " "));
}

/** Columns worth a merchant's glance; anything else stays in the raw JSON. */
const COLUMNS = {
  attempts: ["number", "orderId", "status", "cryptoCurrencyCode", "cryptoReceived", "fiatApplied"],
  payments: ["attempt", "status", "cryptoCode", "cryptoAmount", "fiatAmount"],
  // Paid from the shopper's wallet straight to the merchant's (x402): who paid, and the transaction.
  x402Payments: ["status", "amount", "payer", "transaction"],
};
const HEADINGS = {
  number: "#",
  attempt: "#",
  orderId: "order id",
  cryptoCurrencyCode: "crypto",
  cryptoCode: "crypto",
  cryptoReceived: "received",
  cryptoAmount: "amount",
  fiatApplied: "applied",
  fiatAmount: "fiat",
};
const show = (value) => (value === null || value === undefined ? "—" : String(value));
/** The ledger's `refundAddress` (`{cryptoCurrencyCode, address}` once saved) as one line. */
const isAddress = (v) =>
  v !== null &&
  typeof v === "object" &&
  typeof v.address === "string" &&
  typeof v.cryptoCurrencyCode === "string";
const fact = (value) =>
  isAddress(value) ? `${value.address} (${value.cryptoCurrencyCode})` : show(value);

/** Section titles other than the key's own words. */
const TITLES = { x402Payments: "Wallet payments (x402)" };

/** A long hex value (an address, a transaction hash) wraps in its cell, whole, never cut. */
const isHex = (v) => typeof v === "string" && /^0x[0-9a-fA-F]{20,}$/.test(v);

function table(rows, preferred, label) {
  const present = [
    ...new Set(rows.flatMap((row) => Object.keys(row).filter((k) => isScalar(row[k])))),
  ];
  const chosen = preferred.filter((k) => present.includes(k));
  const keys = chosen.length ? chosen : present;
  // A table wider than a phone scrolls inside its own region, reachable by keyboard (axe
  // `scrollable-region-focusable`) and named for screen readers.
  return h(
    "div",
    { class: "table-wrap", tabindex: 0, role: "region", "aria-label": label },
    h(
      "table",
      { class: "mini" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          keys.map((k) => h("th", { scope: "col" }, HEADINGS[k] ?? humanize(k))),
        ),
      ),
      h(
        "tbody",
        {},
        rows.map((row) =>
          h(
            "tr",
            {},
            keys.map((k) => h("td", isHex(row[k]) ? { class: "hex" } : {}, show(row[k]))),
          ),
        ),
      ),
    ),
  );
}

function rawJson(value) {
  return h(
    "details",
    { class: "raw" },
    h("summary", {}, "Raw JSON"),
    h("pre", {}, JSON.stringify(value, null, 2)),
  );
}

/** The newest events shown; older ones stay in the raw JSON. */
const ACTIVITY_LIMIT = 8;
const sentence = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);

/** The event log, newest first, in the worker's words (written for merchants). */
function activity(log) {
  const recent = log.slice(-ACTIVITY_LIMIT).reverse();
  return [
    h("h3", {}, "activity"),
    h(
      "ol",
      { class: "activity" },
      recent.map((entry) =>
        h(
          "li",
          {},
          h("time", { datetime: entry.at }, new Date(entry.at).toLocaleTimeString()),
          " ",
          sentence(entry.message ?? entry.type),
        ),
      ),
    ),
  ];
}

/** Fills `container` from `{ status, body }` as the backend relays the worker's answer. */
export function renderLedger(container, ledger) {
  const nodes = [];
  if (ledger.status !== 200) {
    const message = ledger.body?.error?.message ?? "no ledger yet";
    const who = ledger.status ? `The worker answered ${ledger.status}: ` : "";
    nodes.push(h("p", { class: "muted" }, `${who}${message}`));
  } else {
    const data =
      ledger.body?.data && typeof ledger.body.data === "object" ? ledger.body.data : ledger.body;
    const stateKey = STATE_KEYS.find((k) => typeof data?.[k] === "string");
    if (stateKey) nodes.push(h("p", { class: "ledger-state" }, "Order is ", pill(data[stateKey])));
    // A saved refund address is an object; it keeps its row (it is "—" while none is saved).
    const fields = Object.entries(data ?? {}).filter(
      ([k, v]) => (isScalar(v) || isAddress(v)) && k !== stateKey,
    );
    nodes.push(
      h(
        "dl",
        { class: "facts" },
        fields.map(([k, v]) => [h("dt", {}, humanize(k)), h("dd", {}, fact(v))]),
      ),
    );
    // Attempts, payments (x402 ones too) and the last events are what a merchant reads; the
    // rest is in the raw JSON.
    for (const k of ["attempts", "payments", "x402Payments"]) {
      const rows = data?.[k];
      if (
        Array.isArray(rows) &&
        rows.length &&
        rows.every((row) => row && typeof row === "object")
      ) {
        // h3: the ledger sits under an h2 on both pages (axe `heading-order`).
        const title = TITLES[k] ?? humanize(k);
        nodes.push(
          h("h3", TITLES[k] ? { class: "as-written" } : {}, title),
          table(rows, COLUMNS[k], title),
        );
      }
    }
    if (Array.isArray(data?.log) && data.log.length) nodes.push(...activity(data.log));
    nodes.push(rawJson(ledger.body));
  }
  container.replaceChildren(...nodes);
}

/** Fills the `<ol>` with notifications, newest first. */
export function renderNotifications(list, notifications) {
  if (!notifications.length) {
    list.replaceChildren(h("li", { class: "muted" }, "None yet."));
    return;
  }
  list.replaceChildren(
    ...notifications.map((n) =>
      h(
        "li",
        { class: "notification", "data-type": n.type },
        h(
          "div",
          { class: "notification-head" },
          h("strong", {}, n.type),
          h("time", { datetime: n.receivedAt }, new Date(n.receivedAt).toLocaleTimeString()),
        ),
        h(
          "div",
          { class: "muted small" },
          `id ${n.id}`,
          n.deliveries > 1 ? ` · delivered ${n.deliveries}×, kept once` : "",
        ),
        rawJson(n.data),
      ),
    ),
  );
}
