/**
 * @module
 * The demo merchant's orders, in memory: a cart becomes an order with a fresh invoice number
 * and a total computed here from catalog prices (integer cents).
 *
 * Invariant: invoice numbers are random, so a restarted demo never reuses one with a different
 * amount (the worker would answer 409 `checkout_conflict`, by design).
 */
import { randomInt } from "node:crypto";
import { z } from "zod";
import { findProduct } from "./catalog.ts";
import { fromCents, SHOP_CURRENCIES, type ShopCurrency, toCents } from "./money.ts";

/** What the browser sends: ids and quantities only. */
export const cartSchema = z.object({
  currency: z.enum(SHOP_CURRENCIES),
  items: z
    .array(
      z.object({
        productId: z.string().min(1).max(64),
        quantity: z.number().int().min(1).max(20),
      }),
    )
    .min(1, "the cart is empty")
    .max(20),
});
export type Cart = z.infer<typeof cartSchema>;

/** One line of an order. */
export interface OrderLine {
  productId: string;
  name: string;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
}

/** An order as the merchant keeps it. */
export interface Order {
  invoiceNumber: string;
  currency: ShopCurrency;
  lines: OrderLine[];
  /** Exact total, e.g. `"45.30"`. */
  amount: string;
  description: string;
  createdAt: string;
}

// No 0/O, 1/I/L: invoice numbers get read aloud and typed.
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

function newInvoiceNumber(): string {
  let id = "";
  for (let i = 0; i < 6; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/** The order book of the demo merchant. */
export class OrderBook {
  readonly #orders = new Map<string, Order>();

  /**
   * Turns a validated cart into an order.
   *
   * @example
   * const order = book.create({ currency: "USD", items: [{ productId: "enamel-mug", quantity: 2 }] });
   * order.amount; // "22.50"
   */
  create(cart: Cart): Order {
    const lines = cart.items.map(({ productId, quantity }) => {
      const product = findProduct(productId);
      if (!product) throw new Error(`unknown product: ${productId}`);
      const unitPrice = product.price[cart.currency];
      return {
        productId,
        name: product.name,
        quantity,
        unitPrice,
        lineTotal: fromCents(toCents(unitPrice) * BigInt(quantity)),
      };
    });
    const total = lines.reduce((sum, line) => sum + toCents(line.lineTotal), 0n);
    let invoiceNumber = newInvoiceNumber();
    while (this.#orders.has(invoiceNumber)) invoiceNumber = newInvoiceNumber();
    const items = lines.reduce((n, line) => n + line.quantity, 0);
    const order: Order = {
      invoiceNumber,
      currency: cart.currency,
      lines,
      amount: fromCents(total),
      description: `Cedar & Bean order ${invoiceNumber} (${items} item${items === 1 ? "" : "s"})`,
      createdAt: new Date().toISOString(),
    };
    this.#orders.set(invoiceNumber, order);
    return order;
  }

  get(invoiceNumber: string): Order | undefined {
    return this.#orders.get(invoiceNumber);
  }

  /** Newest first. */
  list(): Order[] {
    return [...this.#orders.values()].reverse();
  }
}
