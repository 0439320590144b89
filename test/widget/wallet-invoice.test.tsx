/**
 * The browser wallet beside the x402 offer: paying the invoice's own address ("Pay with a
 * browser wallet" in the payment panel) with one `eth_sendTransaction` of exactly what is still
 * due (native coin: `value`; token: the ERC-20 `transfer` call), on the invoice's chain; every
 * refusal said with a way back and dispatched as `checkout:error`; the x402 terms checked
 * against the button's offer before anything is signed; and the line saying the last wallet
 * payment failed. Against the fake wallet backed by a real key (`wallet-fakes.ts`).
 */

import { fireEvent, screen, waitFor } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import type {
  CheckoutSnapshot,
  CryptoCurrency,
  PaymentInstructions,
  X402PaymentView,
} from "../../packages/contract/src/http-api.ts";
import {
  attempted,
  CURRENCIES,
  type Emitted,
  FakeEventSource,
  opening,
  renderCheckout,
  useWidgetTestDoubles,
} from "./fakes.ts";
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
  x402Route,
} from "./wallet-fakes.ts";

useWidgetTestDoubles();

const INFO = { uuid: "3f1c-uuid-1", name: "Fox Wallet", icon: ICON, rdns: "io.fox" };
const SEPOLIA = 11_155_111;
/** A test-network token contract (USDC on Base Sepolia): never a main-network one in sandbox. */
const USDC_BASE_SEPOLIA = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const TX_HASH = `0x${"cd".repeat(32)}`;

const USDC_BASE: CryptoCurrency = {
  ...CURRENCIES[2]!,
  code: "USDC_BASE",
  name: "USD Coin (Base)",
  network: "Base",
  networkName: "Base",
  tokenType: "erc20",
  decimalPlaces: 6,
  contractAddress: USDC_BASE_SEPOLIA,
};

/** ETH on Ethereum (Sepolia in sandbox), to the merchant's address. */
const ETH_PAYMENT: Partial<PaymentInstructions> = {
  cryptoCurrencyCode: "ETH",
  currencyName: "Ethereum",
  network: "Ethereum",
  networkName: "Ethereum",
  decimalPlaces: 18,
  amount: "0.0123",
  received: "0",
  remaining: "0.0123",
  address: PAY_TO,
  walletUri: `ethereum:${PAY_TO}@${SEPOLIA}?value=12300000000000000`,
};

const USDC_PAYMENT: Partial<PaymentInstructions> = {
  cryptoCurrencyCode: "USDC_BASE",
  currencyName: "USD Coin (Base)",
  network: "Base",
  networkName: "Base",
  decimalPlaces: 6,
  amount: "49.9",
  received: "0",
  remaining: "49.9",
  address: PAY_TO,
  walletUri: null,
};

/** A wallet that sends (answers `eth_sendTransaction` with a hash) unless `send` says otherwise. */
function sender(
  options: Parameters<typeof fakeWallet>[0] & { send?: (params: unknown[]) => unknown } = {},
) {
  const { send = () => TX_HASH, ...rest } = options;
  return fakeWallet({ ...rest, override: { eth_sendTransaction: send, ...rest.override } });
}

/** Opens the in-page checkout at `first`, announces `wallet`, opens the invoice's wallet flow. */
async function startInvoice(first: CheckoutSnapshot, wallet: ReturnType<typeof fakeWallet>) {
  announce(wallet.provider, INFO);
  const rendered = renderCheckout(opening(first), { currencies: [...CURRENCIES, USDC_BASE] });
  // Nothing about the invoice may go to the x402 route.
  const requests = x402Route(() => terms());
  fireEvent.click(await screen.findByRole("button", { name: "Pay with a browser wallet" }));
  await screen.findByRole("heading", { name: "Pay with a browser wallet" });
  fireEvent.click(await screen.findByRole("button", { name: "Fox Wallet" }));
  return { ...rendered, requests };
}

/** The `eth_sendTransaction` calls the wallet got. */
const sends = (wallet: ReturnType<typeof fakeWallet>) =>
  wallet.calls.filter((c) => c.method === "eth_sendTransaction");

/** The `checkout:error` details emitted. */
const errors = (events: Emitted[]) =>
  events.filter((e) => e.name === "checkout:error").map((e) => e.detail);

describe("paying the invoice from a browser wallet", () => {
  it("native coin (ETH on Sepolia): switches chain, sends exactly the amount in wei, then waits for the snapshot", async () => {
    const wallet = sender({ chainId: 1, known: [SEPOLIA] });
    const { requests } = await startInvoice(attempted("created", ETH_PAYMENT), wallet);
    await screen.findByText("Sent from your wallet — waiting for the network");
    expect(wallet.calls.map((c) => c.method)).toEqual([
      "eth_requestAccounts",
      "eth_chainId",
      "wallet_switchEthereumChain",
      "eth_sendTransaction",
    ]);
    // Sandbox: Sepolia, never Ethereum mainnet.
    expect(wallet.calls[2]!.params).toEqual([{ chainId: "0xaa36a7" }]);
    expect(wallet.chain()).toBe(SEPOLIA);
    // 0.0123 ETH = 12300000000000000 wei, exactly.
    expect(sends(wallet)[0]!.params).toEqual([
      { from: PAYER.address, to: PAY_TO, value: "0x2bb2c8eabcc000" },
    ]);
    expect(requests).toHaveLength(0);
    // Sent: nothing more offered (no second send, no "pay another way" inviting a second payment).
    expect(screen.queryByRole("button", { name: "Fox Wallet" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Pay another way" })).toBeNull();
    // The payment is followed as any: the next snapshot ends the flow.
    FakeEventSource.instances[0]!.push(attempted("processing", ETH_PAYMENT, { seq: 2 }));
    await waitFor(() =>
      expect(screen.queryByText("Sent from your wallet — waiting for the network")).toBeNull(),
    );
    expect(screen.queryByRole("heading", { name: "Pay with a browser wallet" })).toBeNull();
  });

  it("partially paid: sends what is still due (`remaining`), not the whole amount", async () => {
    const wallet = sender({ chainId: SEPOLIA, known: [SEPOLIA] });
    await startInvoice(
      attempted(
        "partially_paid",
        { ...ETH_PAYMENT, received: "0.005", remaining: "0.0073" },
        { orderState: "partially_paid" },
      ),
      wallet,
    );
    await screen.findByText("Sent from your wallet — waiting for the network");
    // Already on Sepolia: no switch. 0.0073 ETH = 7300000000000000 wei.
    expect(wallet.calls.map((c) => c.method)).not.toContain("wallet_switchEthereumChain");
    expect(sends(wallet)[0]!.params).toEqual([
      { from: PAYER.address, to: PAY_TO, value: "0x19ef4fb2dc4000" },
    ]);
  });

  it("ERC-20 (USDC on Base Sepolia): the token's transfer(recipient, units), value 0", async () => {
    const wallet = sender({ chainId: 1 });
    await startInvoice(attempted("created", USDC_PAYMENT), wallet);
    await screen.findByText("Sent from your wallet — waiting for the network");
    expect(wallet.calls[2]!).toEqual({
      method: "wallet_switchEthereumChain",
      params: [{ chainId: "0x14a34" }],
    });
    // 49.9 USDC = 49900000 units = 0x2f969e0; the recipient and amount as 32-byte words.
    const data = `0xa9059cbb${"0".repeat(24)}${PAY_TO.slice(2).toLowerCase()}${"2f969e0".padStart(64, "0")}`;
    expect(sends(wallet)[0]!.params).toEqual([
      { from: PAYER.address, to: USDC_BASE_SEPOLIA, value: "0x0", data },
    ]);
  });

  it("Base Sepolia unknown to the wallet (4902): added with its RPC, then switched", async () => {
    let added = false;
    const wallet = sender({
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
    await startInvoice(attempted("created", USDC_PAYMENT), wallet);
    await screen.findByText("Sent from your wallet — waiting for the network");
    expect(wallet.calls.map((c) => c.method)).toEqual([
      "eth_requestAccounts",
      "eth_chainId",
      "wallet_switchEthereumChain",
      "wallet_addEthereumChain",
      "wallet_switchEthereumChain",
      "eth_sendTransaction",
    ]);
    expect(wallet.calls[3]!.params[0]).toMatchObject({
      chainId: "0x14a34",
      chainName: "Base Sepolia",
    });
  });

  it("is offered for EVM addresses only, and only with the currency known (its token contract)", async () => {
    renderCheckout(opening(attempted("created")));
    await screen.findByRole("heading", { name: "Send your payment" });
    // Tron (the fakes' default payment): no browser wallet.
    expect(screen.queryByRole("button", { name: "Pay with a browser wallet" })).toBeNull();
  });
});

describe("when the invoice's wallet payment does not go through", () => {
  it("the shopper declines (4001): said, checkout:error dispatched, try again and the way back", async () => {
    let declines = 1;
    const wallet = sender({
      chainId: SEPOLIA,
      known: [SEPOLIA],
      send: () => {
        if (declines-- > 0) throw rpcError(4001, "User rejected the request.");
        return TX_HASH;
      },
    });
    const { events } = await startInvoice(attempted("created", ETH_PAYMENT), wallet);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("You declined in your wallet.");
    expect(errors(events)).toEqual([
      {
        code: "wallet_declined",
        message: "You declined in your wallet.",
        developerMessage: "User rejected the request.",
      },
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await screen.findByText("Sent from your wallet — waiting for the network");
    expect(sends(wallet)).toHaveLength(2);
  });

  it.each([
    ["-32000", rpcError(-32000, "gas required exceeds allowance")],
    [
      "a message",
      rpcError(-32603, "Internal JSON-RPC error: insufficient funds for gas * price + value"),
    ],
  ])("insufficient funds (%s): said, dispatched, with the way back", async (_, error) => {
    const wallet = sender({
      chainId: SEPOLIA,
      known: [SEPOLIA],
      send: () => Promise.reject(error),
    });
    const { events } = await startInvoice(attempted("created", ETH_PAYMENT), wallet);
    await waitFor(() =>
      expect(screen.getByRole("alert").textContent).toBe(
        "Not enough funds in this wallet for this amount and its network fee.",
      ),
    );
    expect(errors(events)).toMatchObject([{ code: "wallet_no_funds" }]);
    fireEvent.click(screen.getByRole("button", { name: "Pay another way" }));
    await waitFor(() =>
      expect(screen.queryByRole("heading", { name: "Pay with a browser wallet" })).toBeNull(),
    );
    expect(screen.getByRole("button", { name: "Pay with a browser wallet" })).toBeTruthy();
  });

  it("the wallet refuses to switch chain: names the test network, sends nothing", async () => {
    const wallet = sender({
      chainId: 1,
      override: { wallet_switchEthereumChain: () => Promise.reject(rpcError(4001)) },
    });
    const { events } = await startInvoice(attempted("created", ETH_PAYMENT), wallet);
    await waitFor(() =>
      expect(screen.getByRole("alert").textContent).toBe(
        "Your wallet is not on Ethereum (11155111). Switch it to Ethereum (11155111) and try again.",
      ),
    );
    expect(sends(wallet)).toHaveLength(0);
    expect(errors(events)).toMatchObject([{ code: "wallet_wrong_chain" }]);
  });

  it("a chain without known RPC the wallet lacks (4902): says so, adds nothing, sends nothing", async () => {
    // The fake wallet knows mainnet and Base Sepolia only: Sepolia answers 4902.
    const wallet = sender({ chainId: 1 });
    await startInvoice(attempted("created", ETH_PAYMENT), wallet);
    await waitFor(() =>
      expect(screen.getByRole("alert").textContent).toBe(
        "Your wallet does not have the Ethereum (11155111) network. Add it in your wallet, or pay another way.",
      ),
    );
    expect(wallet.calls.map((c) => c.method)).not.toContain("wallet_addEthereumChain");
    expect(sends(wallet)).toHaveLength(0);
  });

  it("a main-network token contract in sandbox is never sent", async () => {
    const wallet = sender({ chainId: SEPOLIA, known: [SEPOLIA] });
    const usdt: CryptoCurrency = {
      ...USDC_BASE,
      code: "USDT_ERC20",
      network: "Ethereum",
      networkName: "Ethereum",
      contractAddress: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
    };
    announce(wallet.provider, INFO);
    renderCheckout(
      opening(
        attempted("created", {
          ...USDC_PAYMENT,
          cryptoCurrencyCode: "USDT_ERC20",
          network: "Ethereum",
        }),
      ),
      { currencies: [usdt] },
    );
    fireEvent.click(await screen.findByRole("button", { name: "Pay with a browser wallet" }));
    fireEvent.click(await screen.findByRole("button", { name: "Fox Wallet" }));
    await screen.findByRole("alert");
    expect(wallet.calls).toHaveLength(0);
  });
});

describe("the x402 terms are what the button said", () => {
  it.each([
    ["another amount", { amount: "49900001" }],
    ["another network", { network: "eip155:8453" }],
    ["another token", { asset: "0x0000000000000000000000000000000000000001" }],
  ])("%s: refused before the wallet signs, said and dispatched", async (_, change) => {
    const wallet = fakeWallet();
    announce(wallet.provider, INFO);
    const changed = { ...REQUIRED, accepts: [{ ...REQUIREMENTS, ...change }] };
    const { events } = renderCheckout(opening(offering()));
    const requests = x402Route((signature) =>
      signature ? paid(offering({ seq: 2 })) : terms(changed),
    );
    fireEvent.click(await screen.findByRole("button", { name: /Pay from your wallet/ }));
    fireEvent.click(await screen.findByRole("button", { name: "Fox Wallet" }));
    await waitFor(() =>
      expect(screen.getByRole("alert").textContent).toBe(
        "The wallet payment's terms differ from what was shown, so nothing was signed. Reload the page or pay another way.",
      ),
    );
    expect(wallet.calls.map((c) => c.method)).not.toContain("eth_signTypedData_v4");
    expect(wallet.calls.map((c) => c.method)).not.toContain("wallet_switchEthereumChain");
    expect(requests).toHaveLength(1);
    expect(errors(events)).toMatchObject([{ code: "wallet_terms" }]);
    expect(screen.getByRole("button", { name: "Pay another way" })).toBeTruthy();
  });

  it("the same terms (the offer's amount in base units, USDC of its network) are signed", async () => {
    const wallet = fakeWallet();
    announce(wallet.provider, INFO);
    renderCheckout(opening(offering({ x402: { ...OFFER, amount: "49.9" } })));
    x402Route((signature) => (signature ? paid(offering({ seq: 2 })) : terms()));
    fireEvent.click(await screen.findByRole("button", { name: /Pay from your wallet/ }));
    fireEvent.click(await screen.findByRole("button", { name: "Fox Wallet" }));
    await waitFor(() =>
      expect(wallet.calls.map((c) => c.method)).toContain("eth_signTypedData_v4"),
    );
  });

  it("a refusal from the worker reaches the page with the worker's code", async () => {
    announce(fakeWallet().provider, INFO);
    const { events } = renderCheckout(opening(offering()));
    x402Route(() => ({
      status: 409,
      body: { error: { code: "x402_in_flight", message: "busy" } },
    }));
    fireEvent.click(await screen.findByRole("button", { name: /Pay from your wallet/ }));
    fireEvent.click(await screen.findByRole("button", { name: "Fox Wallet" }));
    await screen.findByRole("alert");
    expect(errors(events)).toMatchObject([
      {
        code: "x402_in_flight",
        message: "Another payment for this order is being confirmed. Please wait a moment.",
      },
    ]);
  });
});

describe("a failed wallet payment is said", () => {
  const failed = (errorReason: string | null): X402PaymentView => ({
    status: "failed",
    payer: PAYER.address,
    amount: OFFER.amount,
    fiatAmount: "49.90",
    network: OFFER.network,
    transaction: null,
    errorReason,
    createdAt: new Date().toISOString(),
    confirmedAt: null,
  });

  it("beside the button, while the order is payable", async () => {
    renderCheckout(opening(offering({ x402Payment: failed("invalid_exact_evm_signature") })));
    await screen.findByText("Your last wallet payment did not go through; nothing was charged.");
    expect(screen.getByRole("button", { name: /Pay from your wallet/ })).toBeTruthy();
  });

  it("paying again from beside the line: the wallets are found and the flow runs", async () => {
    const wallet = fakeWallet();
    announce(wallet.provider, INFO);
    renderCheckout(opening(offering({ x402Payment: failed(null) })));
    await screen.findByText("Your last wallet payment did not go through; nothing was charged.");
    x402Route((signature) => (signature ? paid(offering({ seq: 2 })) : terms()));
    fireEvent.click(screen.getByRole("button", { name: /Pay from your wallet/ }));
    fireEvent.click(await screen.findByRole("button", { name: "Fox Wallet" }));
    await waitFor(() =>
      expect(wallet.calls.map((c) => c.method)).toContain("eth_signTypedData_v4"),
    );
  });

  it("with the reason when the wallet lacked USDC", async () => {
    renderCheckout(
      opening(offering({ x402Payment: failed("invalid_exact_evm_insufficient_balance") })),
    );
    await screen.findByText(
      "Your last wallet payment did not go through (not enough USDC); nothing was charged.",
    );
  });

  it("not once the order takes no more payment (no offer), nor for a payment on its way", async () => {
    renderCheckout(opening(offering({ x402: null, x402Payment: failed(null) })));
    await screen.findByRole("button", { name: /BTC/ });
    expect(screen.queryByText(/did not go through/)).toBeNull();
    renderCheckout(
      opening(offering({ seq: 2, x402Payment: { ...failed(null), status: "submitted" } })),
    );
    await screen.findAllByText("Confirming your payment…");
    expect(screen.queryByText(/did not go through/)).toBeNull();
  });
});
