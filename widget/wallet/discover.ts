/**
 * @module
 * Finds the browser's wallets the EIP-6963 way: ask (`eip6963:requestProvider`) and list every
 * wallet that announces itself (`eip6963:announceProvider`), once per `uuid`, for as long as
 * the list is open (a wallet may answer late). Only when none answers within `ms` does the
 * legacy `window.ethereum` stand in (one wallet, whichever extension won the race for it).
 *
 * Invariant: a wallet's icon is shown only when it is a `data:image/` URI (as EIP-6963 asks):
 * an icon URL would let a page's wallet list make the shopper's browser fetch anything.
 */
import type { Eip1193 } from "./provider.ts";

/** A wallet the shopper may choose; `name` null: the legacy `window.ethereum`. */
export interface Wallet {
  id: string;
  name: string | null;
  icon: string | null;
  provider: Eip1193;
}

interface Announcement {
  info?: { uuid?: unknown; name?: unknown; icon?: unknown };
  provider?: Eip1193;
}

/**
 * Starts listening; `found` hears each wallet, `none` once if none is there after `ms`.
 * Returns the stop function.
 *
 * @example
 * const stop = discover((w) => list.push(w), () => showNoWallet());
 */
export function discover(found: (w: Wallet) => void, none: () => void, ms = 600): () => void {
  const seen = new Set<unknown>();
  const add = (id: unknown, provider: Eip1193 | undefined, name: unknown, icon?: unknown) => {
    if (seen.has(id) || typeof provider?.request !== "function") return;
    seen.add(id);
    found({
      id: String(id),
      name: name === null ? null : String(name),
      icon: typeof icon === "string" && /^data:image\//.test(icon) ? icon : null,
      provider,
    });
  };
  const heard = (e: Event) => {
    const { info, provider } = ((e as CustomEvent<Announcement>).detail ?? {}) as Announcement;
    if (info) add(info.uuid, provider, info.name, info.icon);
  };
  addEventListener("eip6963:announceProvider", heard);
  dispatchEvent(new Event("eip6963:requestProvider"));
  const timer = setTimeout(() => {
    if (!seen.size) add("", (globalThis as { ethereum?: Eip1193 }).ethereum, null);
    if (!seen.size) none();
  }, ms);
  return () => {
    clearTimeout(timer);
    removeEventListener("eip6963:announceProvider", heard);
  };
}
