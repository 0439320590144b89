/**
 * @module
 * The demo wallet's EIP-1193 provider: what a browser wallet extension answers, backed by a
 * throwaway test key (sandbox only), so a newcomer without a Base Sepolia wallet can try
 * "Pay from your wallet". It never prompts: it answers at once, as the page's demo panel set it
 * up (decline the next signature, refuse to switch networks).
 *
 * Like a real wallet it starts on Ethereum (chain 1) and knows no other chain, so the widget's
 * switch is exercised the way MetaMask answers it: `wallet_switchEthereumChain` to an unknown
 * chain is 4902, `wallet_addEthereumChain` adds it, the switch then succeeds. It refuses typed
 * data for another chain than the one it is on, and data `from` another account (4100).
 *
 * Invariant: demo only, never in the widget. The key is made per page load and lives in this
 * page's memory; the storefront serves this file bundled with viem (`serve.ts`).
 */
import type { LocalAccount } from "viem/accounts";

/** An EIP-1193 error (`code` 4001 user rejected, 4100 unauthorized, 4200 unsupported, 4902 unknown chain). */
export class ProviderRpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** One request the wallet answered, for the panel's activity list. */
export interface WalletLogEntry {
  method: string;
  /** What the wallet did, in a few words. */
  outcome: string;
  ok: boolean;
}

/** The chain names the wallet shows; any chain added gets its `chainName`. */
const KNOWN_AT_START: ReadonlyMap<number, string> = new Map([[1, "Ethereum"]]);

const hex = (id: number) => `0x${id.toString(16)}`;

/** A `0x` hex chain id (EIP-695) as a number, or null. */
function chainIdParam(value: unknown): number | null {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{1,16}$/.test(value)) return null;
  const id = Number.parseInt(value, 16);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

type Listener = (...args: unknown[]) => void;

/**
 * The demo wallet's provider.
 *
 * @example
 * const wallet = new DemoWallet(privateKeyToAccount(generatePrivateKey()), (e) => console.log(e));
 * await wallet.request({ method: "eth_requestAccounts" }); // ["0x…"]
 */
export class DemoWallet {
  readonly account: LocalAccount;
  chainId = 1;
  readonly chains = new Map(KNOWN_AT_START);
  connected = false;
  /** The next `eth_signTypedData_v4` is declined (4001), once. */
  declineNext = false;
  /** Every switch (and add) of network is declined (4001). */
  refuseSwitch = false;
  readonly log: (entry: WalletLogEntry) => void;
  readonly listeners = new Map<string, Set<Listener>>();

  constructor(account: LocalAccount, log: (entry: WalletLogEntry) => void = () => {}) {
    this.account = account;
    this.log = log;
  }

  /** The current chain's name ("Base Sepolia") and id. */
  chainLabel(): string {
    return `${this.chains.get(this.chainId) ?? "Unknown"} (${this.chainId})`;
  }

  on(event: string, listener: Listener): this {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return this;
  }

  removeListener(event: string, listener: Listener): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  emit(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }

  /** EIP-1193 `request`: resolves with the answer or rejects with a `ProviderRpcError`. */
  async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    const list = Array.isArray(params) ? params : [];
    try {
      const [answer, outcome] = await this.answer(method, list);
      this.log({ method, outcome, ok: true });
      return answer;
    } catch (error) {
      const e =
        error instanceof ProviderRpcError
          ? error
          : new ProviderRpcError(-32603, (error as Error).message);
      this.log({ method, outcome: `error ${e.code}: ${e.message}`, ok: false });
      throw e;
    }
  }

  private async answer(method: string, params: unknown[]): Promise<[unknown, string]> {
    const address = this.account.address;
    switch (method) {
      case "eth_requestAccounts":
        this.connected = true;
        return [[address], `connected ${address}`];
      case "eth_accounts":
        return [this.connected ? [address] : [], this.connected ? address : "not connected"];
      case "eth_chainId":
        return [hex(this.chainId), this.chainLabel()];
      case "wallet_switchEthereumChain": {
        const id = chainIdParam((params[0] as { chainId?: unknown } | undefined)?.chainId);
        if (id === null) throw new ProviderRpcError(-32602, "Invalid chainId");
        if (this.refuseSwitch) throw new ProviderRpcError(4001, "User rejected the request.");
        const name = this.chains.get(id);
        if (!name) throw new ProviderRpcError(4902, `Unrecognized chain ID "${hex(id)}".`);
        if (id !== this.chainId) {
          this.chainId = id;
          this.emit("chainChanged", hex(id));
        }
        return [null, `switched to ${this.chainLabel()}`];
      }
      case "wallet_addEthereumChain": {
        const chain = params[0] as { chainId?: unknown; chainName?: unknown; rpcUrls?: unknown };
        const id = chainIdParam(chain?.chainId);
        if (
          id === null ||
          typeof chain.chainName !== "string" ||
          !Array.isArray(chain.rpcUrls) ||
          !chain.rpcUrls.length
        ) {
          throw new ProviderRpcError(-32602, "Invalid chain parameters");
        }
        if (this.refuseSwitch) throw new ProviderRpcError(4001, "User rejected the request.");
        this.chains.set(id, chain.chainName);
        return [null, `added ${chain.chainName} (${id})`];
      }
      case "eth_signTypedData_v4":
        return [await this.signTypedData(params), "signed the payment authorization"];
      default:
        throw new ProviderRpcError(4200, `The demo wallet does not support ${method}.`);
    }
  }

  private async signTypedData(params: unknown[]): Promise<string> {
    const [from, json] = params;
    if (typeof from !== "string" || from.toLowerCase() !== this.account.address.toLowerCase()) {
      throw new ProviderRpcError(4100, "The requested account is not this wallet's.");
    }
    let data: {
      domain?: { chainId?: unknown };
      types?: Record<string, { name: string; type: string }[]>;
      primaryType?: string;
      message?: Record<string, unknown>;
    };
    try {
      data = typeof json === "string" ? JSON.parse(json) : (json as typeof data);
    } catch {
      throw new ProviderRpcError(-32602, "The typed data is not JSON.");
    }
    if (!data?.domain || !data.types || !data.primaryType || !data.message) {
      throw new ProviderRpcError(-32602, "The typed data lacks domain, types or message.");
    }
    const chainId = Number(data.domain.chainId);
    if (chainId !== this.chainId) {
      throw new ProviderRpcError(
        -32602,
        `Provided chainId "${chainId}" must match the active chainId "${this.chainId}"`,
      );
    }
    if (this.declineNext) {
      this.declineNext = false;
      this.emit("declined");
      throw new ProviderRpcError(4001, "User rejected the request.");
    }
    // viem derives EIP712Domain from the domain itself.
    const { EIP712Domain: _, ...types } = data.types;
    return this.account.signTypedData({
      domain: data.domain as never,
      types,
      primaryType: data.primaryType,
      message: data.message,
    });
  }
}
