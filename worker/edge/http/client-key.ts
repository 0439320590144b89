/**
 * @module
 * Who "a client" is, for the per-client limits and the budget's fair shares
 * (`core/budget/shares.ts`): the caller's address as Cloudflare saw it (`cf-connecting-ip`),
 * an IPv6 address cut to its /64 (one subscriber's whole allocation: rotating addresses inside
 * it buys nothing), hashed with a secret of the deployment so neither the budget object nor
 * the rate limiter ever holds an address, and the key cannot be turned back into one.
 *
 * Not the checkout token: tokens are free (the storefront mints one per cart), so a token
 * names a cart, never who holds it.
 */

/** Hex characters of the key kept (64 bits: no two clients of one deployment meet). */
const KEY_CHARS = 16;

/**
 * The part of `ip` that names one client: an IPv4 address whole, an IPv6 address's first four
 * groups (its /64), an IPv4-mapped IPv6 address as its IPv4 address; `unknown` without one.
 *
 * @example
 * clientPrefix("203.0.113.7"); // "203.0.113.7"
 * clientPrefix("2001:db8:1:2:aaaa::1"); // "2001:db8:1:2::/64"
 * clientPrefix("::ffff:203.0.113.7"); // "203.0.113.7"
 */
export function clientPrefix(ip: string | undefined): string {
  const address = (ip ?? "").trim().toLowerCase().slice(0, 64);
  if (!address) return "unknown";
  if (!address.includes(":")) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  const [head = "", tail] = address.split("::", 2);
  const front = head ? head.split(":") : [];
  const back = tail ? tail.split(":") : [];
  const groups =
    tail === undefined
      ? front
      : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  const prefix = groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "") || "0");
  return `${prefix.join(":")}::/64`;
}

/**
 * The client key of the request's caller: its `clientPrefix`, hashed with `secret`.
 *
 * @example
 * const client = await clientKey(c.req.header("cf-connecting-ip"), config.CHECKOUT_SIGNING_SECRET);
 */
export async function clientKey(ip: string | undefined, secret: string): Promise<string> {
  const data = new TextEncoder().encode(`client-key|${secret}|${clientPrefix(ip)}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(digest.subarray(0, KEY_CHARS / 2), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}
