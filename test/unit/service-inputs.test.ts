/**
 * The service's request bodies (`worker/service/inputs.ts`): exactly the operation's fields, in
 * its order, `accountId` first where the operation takes one, amounts as exact JSON numerals,
 * `undefined` left out; a bad input is a `TypeError` naming the field, before any body exists.
 */
import { describe, expect, it } from "vitest";
import {
  type CreateInvoiceInput,
  commitBody,
  depositBody,
  invoiceBody,
  quoteBody,
} from "../../worker/service/inputs.ts";

describe("request bodies", () => {
  it("sends an invoice's fields in order, the amount as an exact numeral, nothing undefined", () => {
    const input = {
      orderId: "cc-1",
      fiatCurrencyCode: "USD",
      amount: "49.90",
      description: undefined,
      expiresInMinutes: 30,
      customPayload: "p",
      ignored: "not a field of the operation",
    } as CreateInvoiceInput;
    const body = invoiceBody("acc-1", input);
    expect(JSON.stringify(body)).toBe(
      '{"accountId":"acc-1","fiatCurrencyCode":"USD","orderId":"cc-1","amount":49.9,"expiresInMinutes":30,"customPayload":"p"}',
    );
  });

  it("sends a deposit's, a quote's and a commit's fields, a commit without accountId", () => {
    expect(depositBody("acc-1", { orderId: "t-1", cryptoCurrencyCode: "BTC" })).toEqual({
      accountId: "acc-1",
      cryptoCurrencyCode: "BTC",
      orderId: "t-1",
    });
    const quote = quoteBody("acc-1", {
      orderId: "po-1",
      cryptoCurrencyCode: "BTC",
      address: "bc1q",
      amount: "0.010",
      allowAutoConvert: false,
    });
    expect(JSON.stringify(quote)).toBe(
      '{"accountId":"acc-1","cryptoCurrencyCode":"BTC","address":"bc1q","amount":0.01,"orderId":"po-1","allowAutoConvert":false}',
    );
    expect(commitBody({ quoteId: "q-1", webhookUrl: "https://w.example/" })).toEqual({
      quoteId: "q-1",
      webhookUrl: "https://w.example/",
    });
  });

  it("refuses a missing text, then a bad amount, then a bad expiry, naming the field", () => {
    const ok = { orderId: "cc-1", fiatCurrencyCode: "USD", amount: "1" };
    expect(() => invoiceBody("a", { ...ok, orderId: "", amount: "x" })).toThrow(
      new TypeError("orderId must be a non-empty string"),
    );
    expect(() => invoiceBody("a", { ...ok, amount: "1e3", expiresInMinutes: 0 })).toThrow(
      new TypeError('amount must be a plain decimal string such as "49.90"'),
    );
    expect(() => invoiceBody("a", { ...ok, expiresInMinutes: 1.5 })).toThrow(
      new TypeError("expiresInMinutes must be a positive integer"),
    );
    expect(() =>
      quoteBody("a", { orderId: "p", cryptoCurrencyCode: "BTC", address: "", amount: "-1" }),
    ).toThrow(new TypeError("address must be a non-empty string"));
    expect(() => commitBody({ quoteId: "" })).toThrow(
      new TypeError("quoteId must be a non-empty string"),
    );
  });
});
