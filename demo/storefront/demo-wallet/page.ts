/**
 * @module
 * The checkout page's demo wallet (browser entry, bundled with viem by `serve.ts` and served as
 * `/assets/demo-wallet.js`): a throwaway key made for this page load, announced to the page the
 * EIP-6963 way (as a wallet extension would, so the widget lists it), and the *Demo wallet*
 * panel: its address, network and sandbox USDC balance, what it answered, and switches that
 * make it decline the next signature, refuse to switch networks, or hold no USDC.
 *
 * Invariant: sandbox only. The key never leaves this page's memory and is never stored; the
 * balance is the sandbox facilitator's, read and set through the storefront's backend.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { DEMO_WALLET_NAME, DEMO_WALLET_RDNS } from "./names.ts";
import { DemoWallet, type WalletLogEntry } from "./provider.ts";

/** A small purple wallet with a "test" tab (EIP-6963 wants a data URI). */
const ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#5b21b6"/><rect x="6" y="9" width="20" height="15" rx="3" fill="#fff"/><rect x="17" y="14" width="9" height="5" rx="2" fill="#c4b5fd"/><circle cx="20" cy="16.5" r="1.3" fill="#5b21b6"/></svg>',
)}`;
const FULL_BALANCE = "1000";
const MAX_LOG = 12;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;

const entries: WalletLogEntry[] = [];
const wallet = new DemoWallet(privateKeyToAccount(generatePrivateKey()), (entry) => {
  entries.push(entry);
  renderLog();
  renderState();
  if (entry.method === "eth_signTypedData_v4") void refreshBalance();
});

// EIP-6963: announce now and whenever a dapp asks.
const info = Object.freeze({
  uuid: crypto.randomUUID(),
  name: DEMO_WALLET_NAME,
  icon: ICON,
  rdns: DEMO_WALLET_RDNS,
});
const announce = () =>
  window.dispatchEvent(
    new CustomEvent("eip6963:announceProvider", {
      detail: Object.freeze({ info, provider: wallet }),
    }),
  );
window.addEventListener("eip6963:requestProvider", announce);
announce();

function renderLog() {
  const list = $<HTMLOListElement>("wallet-log");
  if (!list) return;
  list.replaceChildren(
    ...entries
      .slice(-MAX_LOG)
      .reverse()
      .map((entry) => {
        const li = document.createElement("li");
        li.dataset.ok = String(entry.ok);
        const code = document.createElement("code");
        code.textContent = entry.method;
        li.append(code, ` ${entry.outcome}`);
        return li;
      }),
  );
}

function renderState() {
  const chain = $("wallet-chain");
  if (chain) chain.textContent = wallet.chainLabel();
  const decline = $<HTMLInputElement>("wallet-decline");
  if (decline) decline.checked = wallet.declineNext;
}

let balanceSeq = 0;
async function balanceRequest(init?: RequestInit) {
  const seq = ++balanceSeq;
  const out = $("wallet-balance");
  try {
    const response = await fetch(`/api/demo-wallet/${wallet.account.address}/balance`, init);
    const body = (await response.json()) as { data?: { balance?: string } };
    if (seq !== balanceSeq || !out) return;
    out.textContent = body.data?.balance
      ? `${body.data.balance} USDC`
      : `unavailable (HTTP ${response.status})`;
    out.dataset.balance = body.data?.balance ?? "";
  } catch (error) {
    if (seq === balanceSeq && out)
      out.textContent = `sandbox unreachable: ${(error as Error).message}`;
  }
}
const refreshBalance = () => balanceRequest();
const setBalance = (balance: string) =>
  balanceRequest({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ balance }),
  });

function wire() {
  const address = $("wallet-address");
  if (!address) return; // a page without the panel still has the wallet
  address.textContent = wallet.account.address;
  renderState();
  renderLog();
  void refreshBalance();
  $<HTMLInputElement>("wallet-decline")?.addEventListener("change", (e) => {
    wallet.declineNext = (e.target as HTMLInputElement).checked;
  });
  $<HTMLInputElement>("wallet-refuse-switch")?.addEventListener("change", (e) => {
    wallet.refuseSwitch = (e.target as HTMLInputElement).checked;
  });
  $("wallet-empty")?.addEventListener("click", () => void setBalance("0"));
  $("wallet-refill")?.addEventListener("click", () => void setBalance(FULL_BALANCE));
  // A payment settles (debits) while the widget's status changes: read the balance again.
  document.querySelector("crypto-checkout")?.addEventListener("checkout:status", refreshBalance);
}

wallet.on("declined", renderState);
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
else wire();
