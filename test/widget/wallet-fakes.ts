/**
 * The wallet tests' doubles: an EIP-1193 wallet backed by a real local key (viem signs what the
 * widget asks it to sign, as a browser wallet would), announced the EIP-6963 way or installed
 * as `window.ethereum`, and the worker's x402 route (`POST /v1/checkouts/:id/x402`) with the
 * headers it sends and reads.
 */

import { privateKeyToAccount } from "viem/accounts";
import { afterEach, vi } from "vitest";
import type { CheckoutSnapshot, X402Offer } from "../../packages/contract/src/http-api.ts";
import { encodeBase64Json } from "../../worker/lib/x402/base64-json.ts";
import type { PaymentRequired, PaymentRequirements } from "../../worker/lib/x402/protocol.ts";
import { ok, snapshot } from "./fakes.ts";

/** A throwaway key (never funded anywhere). */
export const PAYER = privateKeyToAccount(
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
);
export const USDC_SEPOLIA = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
export const PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
export const X402_PATH = "/v1/checkouts/abcdefghijklmnopqrstuv/x402";

export const OFFER: X402Offer = {
  network: "eip155:84532",
  chainId: 84_532,
  chainName: "Base Sepolia",
  symbol: "USDC",
  decimals: 6,
  amount: "49.900000",
};

export const REQUIREMENTS: PaymentRequirements = {
  scheme: "exact",
  network: "eip155:84532",
  asset: USDC_SEPOLIA,
  amount: "49900000",
  payTo: PAY_TO,
  maxTimeoutSeconds: 300,
  extra: { name: "USDC", version: "2" },
};

export const REQUIRED: PaymentRequired = {
  x402Version: 2,
  error: "PAYMENT-SIGNATURE header is required",
  resource: {
    url: `https://pay.example.test${X402_PATH}`,
    description: "Cedar & Bean order 1001",
    mimeType: "application/json",
  },
  accepts: [REQUIREMENTS],
};

/** A checkout offering x402 (in-page unless told). */
export const offering = (over: Partial<CheckoutSnapshot> = {}) =>
  snapshot({ x402: OFFER, x402Payment: null, ...over });

/** A JSON-RPC error as wallets throw them. */
export const rpcError = (code: number, message = "refused") =>
  Object.assign(new Error(message), { code });

type Rpc = (params: unknown[]) => unknown;

/**
 * A wallet on chain `chainId` that knows `known` chains (EIP-1193). `override` replaces a
 * method's answer (throw `rpcError(4001)` to refuse). Records every call.
 */
export function fakeWallet(
  options: { chainId?: number; known?: number[]; override?: Record<string, Rpc> } = {},
) {
  let chain = options.chainId ?? 84_532;
  const known = new Set([1, 84_532, ...(options.known ?? [])]);
  const calls: { method: string; params: unknown[] }[] = [];
  const methods: Record<string, Rpc> = {
    eth_requestAccounts: () => [PAYER.address],
    eth_chainId: () => `0x${chain.toString(16)}`,
    wallet_switchEthereumChain: (params) => {
      const id = Number((params[0] as { chainId: string }).chainId);
      if (!known.has(id)) throw rpcError(4902, "Unrecognized chain ID");
      chain = id;
      return null;
    },
    wallet_addEthereumChain: (params) => {
      known.add(Number((params[0] as { chainId: string }).chainId));
      return null;
    },
    // As a wallet does: parse the JSON, sign the typed data it describes with the key.
    eth_signTypedData_v4: async (params) => {
      const [from, json] = params as [string, string];
      if (from !== PAYER.address) throw rpcError(4100, "unknown account");
      const data = JSON.parse(json);
      const { EIP712Domain: _, ...types } = data.types;
      return PAYER.signTypedData({
        domain: data.domain,
        types,
        primaryType: data.primaryType,
        message: data.message,
      });
    },
    ...options.override,
  };
  const provider = {
    async request({ method, params = [] }: { method: string; params?: unknown[] }) {
      calls.push({ method, params });
      const handler = methods[method];
      if (!handler) throw rpcError(4200, `unsupported ${method}`);
      return handler(params);
    },
  };
  return { provider, calls, chain: () => chain };
}

const listeners: (() => void)[] = [];
afterEach(() => {
  for (const off of listeners.splice(0)) off();
  delete (globalThis as { ethereum?: unknown }).ethereum;
});

/** Announces `provider` on every EIP-6963 request, as an extension's content script does. */
export function announce(
  provider: unknown,
  info: { uuid: string; name: string; icon: string; rdns: string },
) {
  const answer = () =>
    dispatchEvent(
      new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }),
    );
  addEventListener("eip6963:requestProvider", answer);
  listeners.push(() => removeEventListener("eip6963:requestProvider", answer));
}

/** An SVG icon as a data URI, as wallets announce it. */
export const ICON = "data:image/svg+xml;base64,PHN2Zy8+";

/** One answer of the x402 route: status, JSON body, headers. */
export interface X402Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The route's 402 with the terms, in the header and the body (as the protocol sends them). */
export const terms = (required = REQUIRED): X402Answer => ({
  status: 402,
  body: required,
  headers: { "PAYMENT-REQUIRED": encodeBase64Json(required) },
});

/** A refusal of the route (`{ error: { code, message, reason? } }`), `data` optional. */
export const x402Refusal = (
  status: number,
  code: string,
  extra: { reason?: string; data?: unknown; headers?: Record<string, string> } = {},
): X402Answer => ({
  status,
  body: {
    error: { code, message: code, ...(extra.reason ? { reason: extra.reason } : {}) },
    ...(extra.data ? { data: extra.data } : {}),
  },
  headers: extra.headers,
});

/** The paid answer: the snapshot, with `PAYMENT-RESPONSE`. */
export const paid = (next: CheckoutSnapshot): X402Answer => ({
  ...ok(next),
  headers: {
    "PAYMENT-RESPONSE": encodeBase64Json({
      success: true,
      transaction: "0x",
      network: "eip155:84532",
    }),
  },
});

/**
 * Puts the x402 route in front of the fetch `renderCheckout` installed: `answer` gets the
 * request's `PAYMENT-SIGNATURE` (null without) and gives the route's answer. Records requests.
 */
export function x402Route(answer: (signature: string | null, n: number) => X402Answer) {
  const inner = globalThis.fetch;
  const requests: { method: string; headers: Headers; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    if (url.pathname !== X402_PATH) return inner(input, init);
    const headers = new Headers(init.headers);
    requests.push({ method: init.method ?? "GET", headers, body: init.body });
    const out = answer(headers.get("PAYMENT-SIGNATURE"), requests.length);
    return new Response(JSON.stringify(out.body), {
      status: out.status,
      headers: { "content-type": "application/json", ...out.headers },
    });
  });
  return requests;
}
