import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { createApi } from "../../widget/api.ts";
import { translator } from "../../widget/i18n/index.ts";
import { fixedCurrency, TopUp } from "../../widget/topup.tsx";
import {
  BASE,
  CURRENCIES,
  depositSnapshot,
  FakeEventSource,
  fakeWorker,
  useWidgetTestDoubles,
} from "./fakes.ts";

const jwt = (claims: Record<string, unknown>) =>
  `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")}.sig`;

useWidgetTestDoubles();

describe("top-up mode", () => {
  it("reads whether the token fixes the currency (unverified, for the UI only)", () => {
    expect(fixedCurrency(jwt({ sub: "t", cryptoCurrencyCode: "BTC" }))).toBe("BTC");
    expect(fixedCurrency(jwt({ sub: "t" }))).toBeNull();
    expect(fixedCurrency("garbage")).toBeNull();
  });

  it("lets the customer pick a currency, then shows address, exact minimum and the service fee read from the service", async () => {
    const worker = fakeWorker({
      "GET /v1/currencies": () => ({ status: 200, body: { data: CURRENCIES } }),
      "POST /v1/deposits": () => ({ status: 201, body: { data: depositSnapshot() } }),
    });
    vi.stubGlobal("fetch", worker.fetch);
    const token = jwt({ sub: "topup-7", mode: "deposit" });
    render(<TopUp api={createApi(BASE)} token={token} i18n={translator("en")} emit={() => {}} />);
    fireEvent.click(await screen.findByRole("button", { name: "USDT Tether USD (TRC-20)" }));
    await screen.findByText("Top up with Tether USD (TRC-20) on TRON");
    expect(worker.calls.at(-1)).toEqual({
      method: "POST",
      path: "/v1/deposits",
      body: { token, cryptoCurrencyCode: "USDT_TRC20" },
    });
    expect(screen.getByText("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7")).toBeTruthy();
    // The larger of the deposit's and the currency's minimum, exactly.
    expect(screen.getByText("Minimum deposit: 2.5 USDT")).toBeTruthy();
    expect(screen.getByText("Service fee: 0.5 % of what you send")).toBeTruthy();
    expect(screen.getByText("Network fee: 0.3 USDT")).toBeTruthy();
    expect(FakeEventSource.instances[0]?.url).toBe(
      `${BASE}/v1/deposits/dabcdefghijklmnopqrstuv/events`,
    );
  });

  it("opens directly when the token fixes the currency, and shows the net credit when completed", async () => {
    const worker = fakeWorker({
      "POST /v1/deposits": () => ({ status: 201, body: { data: depositSnapshot() } }),
    });
    vi.stubGlobal("fetch", worker.fetch);
    const events: string[] = [];
    render(
      <TopUp
        api={createApi(BASE)}
        token={jwt({ sub: "topup-7", mode: "deposit", cryptoCurrencyCode: "USDT_TRC20" })}
        i18n={translator("en")}
        emit={(name) => events.push(name)}
      />,
    );
    await screen.findAllByText("Waiting for your deposit…");
    expect(worker.calls.map((c) => c.path)).toEqual(["/v1/deposits"]);
    FakeEventSource.instances[0]!.push(
      depositSnapshot({
        seq: 3,
        status: "completed",
        final: true,
        settlement: {
          received: "100",
          networkFee: "0.3",
          commission: "0.5",
          net: "99.2",
          source: "service",
        },
      }) as never,
    );
    await screen.findAllByText("Credited 99.2 USDT.");
    expect(
      screen.getByText("Received 100 − service fee 0.5 − network fee 0.3 = 99.2 USDT"),
    ).toBeTruthy();
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    expect(events).toContain("checkout:paid");
  });
});
