/**
 * @module
 * The demo shop's products. Prices are set here, on the server, per currency, as decimal
 * strings: the browser sends product ids and quantities, never prices.
 */
import type { ShopCurrency } from "./money.ts";

/** One product of the shop. */
export interface Product {
  id: string;
  name: string;
  blurb: string;
  /** Two-letter artwork label and tile colours. */
  art: { mark: string; from: string; to: string };
  price: Record<ShopCurrency, string>;
}

/** The catalog, in display order. */
export const PRODUCTS: readonly Product[] = [
  {
    id: "house-blend",
    name: "House Blend, 250 g",
    blurb: "Chocolate, hazelnut, a long sweet finish. Whole beans.",
    art: { mark: "HB", from: "#7c4a2d", to: "#c08552" },
    price: { USD: "14.90", EUR: "13.90" },
  },
  {
    id: "ethiopia-guji",
    name: "Ethiopia Guji, 250 g",
    blurb: "Bergamot, peach and jasmine. Light roast, washed.",
    art: { mark: "EG", from: "#9a3412", to: "#f59e0b" },
    price: { USD: "19.50", EUR: "18.20" },
  },
  {
    id: "pour-over-kit",
    name: "Pour-over kit",
    blurb: "Glass dripper, 100 filters and a matching carafe.",
    art: { mark: "PK", from: "#0f766e", to: "#5eead4" },
    price: { USD: "42.00", EUR: "39.00" },
  },
  {
    id: "enamel-mug",
    name: "Enamel mug",
    blurb: "350 ml, speckled blue, survives every camp trip.",
    art: { mark: "EM", from: "#1e3a8a", to: "#60a5fa" },
    price: { USD: "11.25", EUR: "10.50" },
  },
];

/**
 * Finds a product by id.
 *
 * @example
 * findProduct("enamel-mug")?.price.USD; // "11.25"
 */
export function findProduct(id: string): Product | undefined {
  return PRODUCTS.find((product) => product.id === id);
}
