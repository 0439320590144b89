/**
 * The script-tag bundle's later states (`widget/lazy/later.ts`): what the card shows after the
 * choice (`views/later.tsx`: the status line's words, the overpayment note) comes with
 * `payment.js`. A checkout that opens in a later state before that chunk ran keeps "Loading…"
 * until it did, then shows the state whole: never a status line without its words. A fresh
 * checkout does not wait for it. Here the checkout view runs with the stand-in, and a test
 * double plays the chunk (it registers the real module when the test lets it arrive).
 */
import { screen } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { loadChunk } from "../../widget/lazy/view.ts";
import { attempted, opening, renderCheckout, snapshot, useWidgetTestDoubles } from "./fakes.ts";

const chunk = vi.hoisted(() => ({ arrive: () => {} }));

vi.mock("../../widget/views/later.tsx", () => import("../../widget/lazy/later.ts"));
vi.mock("../../widget/lazy/view.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../widget/lazy/view.ts")>();
  const { registerView } = await import("../../widget/lazy/registry.ts");
  const later = await vi.importActual<typeof import("../../widget/views/later.tsx")>(
    "../../widget/views/later.tsx",
  );
  // What payment.js does when it runs: register the later parts.
  const loaded = new Promise<void>((resolve) => {
    chunk.arrive = () => {
      registerView("later-note", later.LaterNote);
      registerView("later-status", later.laterStatus);
      resolve();
    };
  });
  return { ...real, loadChunk: vi.fn(() => loaded) };
});

useWidgetTestDoubles();

describe("later states in the script-tag bundle", () => {
  it("a fresh checkout shows the picker without waiting for payment.js", async () => {
    renderCheckout(opening(snapshot()));
    await screen.findByText("Choose how you pay");
    expect(document.querySelector(".status")?.textContent).toBe("Not paid yet.");
    expect(loadChunk).not.toHaveBeenCalled();
  });

  it("a checkout opening overpaid keeps Loading until payment.js ran, then shows it whole", async () => {
    const over = attempted(
      "overpaid",
      { received: "55", remaining: "0" },
      { final: true, orderState: "paid", amountOverpaid: "5.00" },
    );
    const { events } = renderCheckout(opening(over));
    await vi.waitFor(() => expect(loadChunk).toHaveBeenCalledWith("payment.js"));
    // Not shown yet: no status line, no event; the card says it is loading.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText("Loading your checkout…")).toBeTruthy();
    expect(document.querySelector(".status")).toBeNull();
    expect(events).toEqual([]);
    chunk.arrive();
    await screen.findAllByText(/you sent \$5\.00 more than needed\./);
    expect(screen.getByText("Received 55 of 49.9 USDT.")).toBeTruthy();
    expect(events.map((e) => e.name)).toEqual(["checkout:status", "checkout:paid"]);
  });
});
