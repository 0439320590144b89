/**
 * "Pay from your wallet" (x402): the button the snapshot's offer shows, and the flow
 * (`views/wallet.tsx`, `wallet/*`) against a wallet backed by a real key and a scripted worker:
 * EIP-6963 discovery (icons only as data:image/, `window.ethereum` as the fallback, no wallet),
 * connect, the 402's terms, the chain switch (and add), one EIP-3009 signature that verifies
 * as `@x402/evm` builds it, the `PAYMENT-SIGNATURE` the protocol's own schema accepts, then the
 * snapshot's `x402Payment` followed to paid; and every refusal in plain words with a way back.
 */

import { fireEvent, screen, waitFor } from "@testing-library/preact";
import { parsePaymentPayload } from "@x402/core/schemas";
import { authorizationTypes } from "@x402/evm";
import { verifyTypedData } from "viem";
import { describe, expect, it } from "vitest";
import type { CheckoutSnapshot } from "../../packages/contract/src/http-api.ts";
import { decodeBase64Json } from "../../worker/lib/x402/base64-json.ts";
import { FakeEventSource, opening, renderCheckout, useWidgetTestDoubles } from "./fakes.ts";
import {
  announce,
  fakeWallet,
  ICON,
  OFFER,
  offering,
  PAY_TO,
  PAYER,
  paid,
  REQUIRED,
  REQUIREMENTS,
  rpcError,
  terms,
  USDC_SEPOLIA,
  type X402Answer,
  x402Refusal,
  x402Route,
} from "./wallet-fakes.ts";

useWidgetTestDoubles();

const INFO = { uuid: "3f1c-uuid-1", name: "Fox Wallet", icon: ICON, rdns: "io.fox" };

/** A payment of the offer on its way (`x402Payment`), at `seq`. */
const paying = (status: "settling" | "submitted" | "confirmed", seq: number): CheckoutSnapshot =>
  offering({
    seq,
    x402: status === "confirmed" ? null : OFFER,
    final: status === "confirmed",
    orderState: status === "confirmed" ? "paid" : "unpaid",
    x402Payment: {
      status,
      payer: PAYER.address,
      amount: OFFER.amount,
      fiatAmount: "49.90",
      network: OFFER.network,
      transaction: status === "settling" ? null : `0x${"ab".repeat(32)}`,
      errorReason: null,
      createdAt: new Date().toISOString(),
      confirmedAt: null,
    },
  });

/** Opens a checkout offering x402 with `route` as the worker's x402 answers; clicks the button. */
async function start(
  route: (signature: string | null, n: number) => X402Answer,
  first = offering(),
) {
  const rendered = renderCheckout(opening(first));
  const requests = x402Route(route);
  const button = await screen.findByRole("button", { name: /Pay from your wallet/ });
  fireEvent.click(button);
  return { ...rendered, requests, button };
}

/** The way back is there: "Pay another way" closes the flow and the checkout is as before. */
async function wayBack() {
  fireEvent.click(screen.getByRole("button", { name: "Pay another way" }));
  await waitFor(() =>
    expect(screen.queryByRole("heading", { name: "Pay from your wallet" })).toBeNull(),
  );
  expect(
    (screen.getByRole("button", { name: /Pay from your wallet/ }) as HTMLButtonElement).disabled,
  ).toBe(false);
}

describe("the button", () => {
  it("shows the offer's exact amount, trimmed, with token and network; none without an offer", async () => {
    renderCheckout(opening(offering({ x402: { ...OFFER, amount: "12.340000" } })));
    const button = await screen.findByRole("button", { name: /Pay from your wallet/ });
    expect(button.textContent).toContain("12.34 USDC on Base Sepolia");
    // Never rounded: every significant digit stays.
    renderCheckout(opening(offering({ x402: { ...OFFER, amount: "0.000001" }, seq: 2 })));
    await screen.findByText("0.000001 USDC on Base Sepolia");
  });

  it("is not there when the snapshot offers no x402", async () => {
    renderCheckout(opening(offering({ x402: null })));
    await screen.findByRole("button", { name: /BTC/ });
    expect(screen.queryByRole("button", { name: /Pay from your wallet/ })).toBeNull();
  });

  it("stands beside the payment page link in hosted mode", async () => {
    renderCheckout(opening(offering({ mode: "hosted" })));
    await screen.findByRole("link", { name: "Open payment page" });
    expect(screen.getByRole("button", { name: /Pay from your wallet/ })).toBeTruthy();
  });
});

describe("paying from the wallet", () => {
  it("discovers, connects, reads the 402, switches chain, signs once, sends it, then follows the payment to paid", async () => {
    const wallet = fakeWallet({ chainId: 1 });
    announce(wallet.provider, INFO);
    const { requests, events, button } = await start((signature) =>
      signature ? paid(paying("submitted", 2)) : terms(),
    );
    // The button stays disabled while the flow is open (no second flow, no double submit).
    expect((button as HTMLButtonElement).disabled).toBe(true);
    const choice = await screen.findByRole("button", { name: "Fox Wallet" });
    expect(choice.querySelector("img")?.getAttribute("src")).toBe(ICON);
    fireEvent.click(choice);
    await screen.findAllByText("Confirming your payment…");
    // The flow closed; nothing else offers to take money meanwhile.
    expect(screen.queryByRole("heading", { name: "Pay from your wallet" })).toBeNull();
    expect(screen.queryByRole("button", { name: /Pay from your wallet/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /BTC/ })).toBeNull();

    expect(wallet.calls.map((c) => c.method)).toEqual([
      "eth_requestAccounts",
      "eth_chainId",
      "wallet_switchEthereumChain",
      "eth_signTypedData_v4",
    ]);
    expect(wallet.calls[2]!.params).toEqual([{ chainId: "0x14a34" }]);
    expect(wallet.chain()).toBe(84_532);

    // First the terms (no signature, no body), then the signed payment.
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.method)).toEqual(["POST", "POST"]);
    expect(requests[0]!.headers.get("PAYMENT-SIGNATURE")).toBeNull();
    const header = requests[1]!.headers.get("PAYMENT-SIGNATURE")!;
    const payload = decodeBase64Json(header) as {
      x402Version: number;
      resource: unknown;
      accepted: unknown;
      payload: { signature: `0x${string}`; authorization: Record<string, string> };
    };
    // The protocol's own schema accepts it, and it carries the terms as offered.
    expect(parsePaymentPayload(payload).success).toBe(true);
    expect(payload.x402Version).toBe(2);
    expect(payload.resource).toEqual(REQUIRED.resource);
    expect(payload.accepted).toEqual(REQUIREMENTS);
    const { authorization, signature } = payload.payload;
    expect(authorization.from).toBe(PAYER.address);
    expect(authorization.to).toBe(PAY_TO);
    expect(authorization.value).toBe("49900000");
    expect(authorization.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    const now = Math.floor(Date.now() / 1000);
    expect(Number(authorization.validAfter)).toBeGreaterThanOrEqual(now - 605);
    expect(Number(authorization.validAfter)).toBeLessThanOrEqual(now - 595);
    expect(Number(authorization.validBefore) - Number(authorization.validAfter)).toBe(900);
    // The signature verifies against the token's domain and @x402/evm's own types.
    const verified = await verifyTypedData({
      address: PAYER.address,
      domain: { name: "USDC", version: "2", chainId: 84_532, verifyingContract: USDC_SEPOLIA },
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: {
        from: authorization.from as `0x${string}`,
        to: authorization.to as `0x${string}`,
        value: BigInt(authorization.value!),
        validAfter: BigInt(authorization.validAfter!),
        validBefore: BigInt(authorization.validBefore!),
        nonce: authorization.nonce as `0x${string}`,
      },
      signature,
    });
    expect(verified).toBe(true);
    // What the wallet was asked to sign is that authorization.
    const signed = JSON.parse(wallet.calls[3]!.params[1] as string);
    expect(wallet.calls[3]!.params[0]).toBe(PAYER.address);
    expect(signed.message).toEqual(authorization);

    // The live status continues: confirmed → paid, as any payment.
    const source = FakeEventSource.instances[0]!;
    source.push(paying("confirmed", 3));
    await screen.findAllByText("Paid — thank you!");
    expect(events.filter((e) => e.name === "checkout:paid")).toHaveLength(1);
  });

  it("reads the terms from the body when the header is not readable (CORS)", async () => {
    const wallet = fakeWallet();
    announce(wallet.provider, INFO);
    const { requests } = await start((signature) =>
      signature ? paid(paying("settling", 2)) : { status: 402, body: REQUIRED },
    );
    fireEvent.click(await screen.findByRole("button", { name: "Fox Wallet" }));
    await screen.findAllByText("Confirming your payment…");
    expect(requests).toHaveLength(2);
    // Already on the chain: no switch asked.
    expect(wallet.calls.map((c) => c.method)).not.toContain("wallet_switchEthereumChain");
  });

  it("adds a chain the wallet does not know (4902), then switches to it", async () => {
    // The wallet knows only mainnet: its first switch answers 4902 (unknown chain).
    let added = false;
    const unknown = fakeWallet({
      chainId: 1,
      override: {
        wallet_switchEthereumChain: () => {
          if (!added) throw rpcError(4902, "Unrecognized chain ID");
          return null;
        },
        wallet_addEthereumChain: () => {
          added = true;
          return null;
        },
      },
    });
    announce(unknown.provider, { ...INFO, uuid: "2", name: "Owl Wallet" });
    await start((signature) => (signature ? paid(paying("submitted", 2)) : terms()));
    fireEvent.click(await screen.findByRole("button", { name: "Owl Wallet" }));
    await screen.findAllByText("Confirming your payment…");
    expect(unknown.calls.map((c) => c.method)).toEqual([
      "eth_requestAccounts",
      "eth_chainId",
      "wallet_switchEthereumChain",
      "wallet_addEthereumChain",
      "wallet_switchEthereumChain",
      "eth_signTypedData_v4",
    ]);
    expect(unknown.calls[3]!.params).toEqual([
      {
        chainId: "0x14a34",
        chainName: "Base Sepolia",
        rpcUrls: ["https://sepolia.base.org"],
        blockExplorerUrls: ["https://sepolia.basescan.org"],
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      },
    ]);
  });
});

describe("finding wallets", () => {
  it("shows an announced wallet's icon only when it is a data:image/ URI", async () => {
    announce(fakeWallet().provider, { ...INFO, icon: "https://tracker.example/icon.png" });
    announce(fakeWallet().provider, { ...INFO, uuid: "2", name: "Owl Wallet", icon: ICON });
    await start(() => terms());
    const fox = await screen.findByRole("button", { name: "Fox Wallet" });
    const owl = await screen.findByRole("button", { name: "Owl Wallet" });
    expect(fox.querySelector("img")).toBeNull();
    expect(owl.querySelector("img")?.getAttribute("src")).toBe(ICON);
    expect(document.querySelector('img[src^="https:"]')).toBeNull();
  });

  it("falls back to window.ethereum when no wallet announces itself", async () => {
    const wallet = fakeWallet();
    (globalThis as { ethereum?: unknown }).ethereum = wallet.provider;
    await start((signature) => (signature ? paid(paying("submitted", 2)) : terms()));
    fireEvent.click(await screen.findByRole("button", { name: "Browser wallet" }));
    await screen.findAllByText("Confirming your payment…");
    expect(wallet.calls.at(-1)!.method).toBe("eth_signTypedData_v4");
  });

  it("says so when the browser has no wallet at all, with the way back", async () => {
    const { requests } = await start(() => terms());
    await screen.findByText(/No wallet found in this browser/);
    expect(requests).toHaveLength(0);
    await wayBack();
  });
});

describe("when it does not go through", () => {
  /** Chooses the announced wallet and waits for the message. */
  async function refused(
    route: Parameters<typeof start>[0],
    message: string | RegExp,
    wallet = fakeWallet(),
  ) {
    announce(wallet.provider, INFO);
    const started = await start(route);
    fireEvent.click(await screen.findByRole("button", { name: "Fox Wallet" }));
    const alert = await screen.findByRole("alert");
    await waitFor(() => expect(alert.textContent).toMatch(message));
    return { ...started, wallet };
  }

  it("the shopper declines in the wallet (4001): said, nothing sent, try again works", async () => {
    let declines = 1;
    const wallet = fakeWallet({
      override: {
        eth_signTypedData_v4: () => {
          if (declines-- > 0) throw rpcError(4001, "User rejected the request.");
          return `0x${"11".repeat(65)}`;
        },
      },
    });
    const { requests } = await refused(
      (signature) => (signature ? paid(paying("submitted", 2)) : terms()),
      "You declined in your wallet.",
      wallet,
    );
    expect(requests).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await screen.findAllByText("Confirming your payment…");
    expect(requests).toHaveLength(3);
  });

  it("the wallet refuses to switch to the network: names it, with the way back", async () => {
    const wallet = fakeWallet({
      chainId: 1,
      override: { wallet_switchEthereumChain: () => Promise.reject(rpcError(4001)) },
    });
    const { requests } = await refused(
      () => terms(),
      "Your wallet is not on Base Sepolia. Switch it to Base Sepolia and try again.",
      wallet,
    );
    expect(wallet.calls.map((c) => c.method)).not.toContain("eth_signTypedData_v4");
    expect(requests).toHaveLength(1);
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
    await wayBack();
  });

  it("adding the chain fails (4902, then the add refused): names the network", async () => {
    const wallet = fakeWallet({
      chainId: 1,
      override: {
        wallet_switchEthereumChain: () => Promise.reject(rpcError(4902)),
        wallet_addEthereumChain: () => Promise.reject(rpcError(4001)),
      },
    });
    await refused(() => terms(), /Switch it to Base Sepolia/, wallet);
    expect(wallet.calls.map((c) => c.method)).toContain("wallet_addEthereumChain");
    await wayBack();
  });

  it.each([
    ["invalid_exact_evm_insufficient_balance", "Not enough USDC in this wallet."],
    [
      "invalid_exact_evm_payload_authorization_valid_before",
      "The signature expired. Please sign again.",
    ],
    [
      "invalid_exact_evm_signature",
      "The wallet's signature did not verify. Try again or choose another wallet.",
    ],
    [
      "invalid_exact_evm_nonce_already_used",
      "The payment was refused (invalid_exact_evm_nonce_already_used).",
    ],
  ])(
    "refused by the facilitator (%s): said in plain words, with the way back",
    async (reason, text) => {
      await refused(
        (signature) => (signature ? x402Refusal(402, "x402_payment_refused", { reason }) : terms()),
        text,
      );
      expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
      await wayBack();
    },
  );

  it("409 in flight: another payment of this order is being settled; wait", async () => {
    await refused(
      (signature) => (signature ? x402Refusal(409, "x402_in_flight") : terms()),
      "Another payment for this order is being confirmed. Please wait a moment.",
    );
    await wayBack();
  });

  it("409 order paid meanwhile: the snapshot it carries is applied", async () => {
    announce(fakeWallet().provider, INFO);
    const { events } = await start((signature) =>
      signature ? x402Refusal(409, "order_paid", { data: paying("confirmed", 5) }) : terms(),
    );
    fireEvent.click(await screen.findByRole("button", { name: "Fox Wallet" }));
    await screen.findAllByText("Paid — thank you!");
    expect(events.filter((e) => e.name === "checkout:paid")).toHaveLength(1);
    expect(screen.queryByRole("button", { name: /Pay from your wallet/ })).toBeNull();
  });

  it("400 payload mismatch: could not be prepared, try again", async () => {
    await refused(
      (signature) => (signature ? x402Refusal(400, "x402_payload_mismatch") : terms()),
      "The payment could not be prepared. Please try again.",
    );
    await wayBack();
  });

  it("503 busy with Retry-After: try again is held back until then", async () => {
    const { requests } = await refused(
      (_, n) =>
        n === 1 ? x402Refusal(503, "service_busy", { headers: { "Retry-After": "1" } }) : terms(),
      "The payment service is busy. Please try again in a moment.",
    );
    expect(requests).toHaveLength(1);
    const again = screen.getByRole("button", { name: "Try again" }) as HTMLButtonElement;
    expect(again.disabled).toBe(true);
    await waitFor(() => expect(again.disabled).toBe(false), { timeout: 2500 });
    await wayBack();
  });

  it("the worker cannot be reached: said, with the way back", async () => {
    announce(fakeWallet().provider, INFO);
    renderCheckout(opening(offering()));
    const inner = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith("/x402")) throw new TypeError("Failed to fetch");
      return inner(input, init);
    }) as typeof fetch;
    fireEvent.click(await screen.findByRole("button", { name: /Pay from your wallet/ }));
    fireEvent.click(await screen.findByRole("button", { name: "Fox Wallet" }));
    await screen.findByText(/We cannot reach the checkout service/);
    await wayBack();
  });
});
