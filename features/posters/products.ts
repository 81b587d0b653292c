/**
 * What a poster can be bought as (GET /api/poster/products): the credit packs — the very ones the
 * orders feature sells and charges (features/orders/products.ts, one table for both) — and printed
 * posters per paper size (not for sale yet). Prices in euro cents, VAT included.
 */
import { PRODUCTS } from "../orders/products.ts";
import { POSTER_SIZE_IDS, type PosterSize } from "./poster.contract.ts";

export type PosterProduct = {
  id: string;
  kind: "credits" | "print";
  /** Credits granted (credit packs). */
  credits?: number;
  size?: PosterSize;
  paper?: "matte-200g" | "satin-250g";
  priceCents: number;
};

const PRINT_PRICES: Record<PosterSize, number> = {
  A4: 1900,
  A3: 2900,
  A2: 3900,
  "30x40": 3400,
  "40x50": 4400,
  "50x70": 5900,
};

export const POSTER_PRODUCTS: readonly PosterProduct[] = [
  ...PRODUCTS.filter((p) => p.kind === "credits" && p.available).map(
    (p): PosterProduct => ({ id: p.id, kind: "credits", credits: p.credits, priceCents: p.priceCents }),
  ),
  ...POSTER_SIZE_IDS.map(
    (size): PosterProduct => ({
      id: `print-${size}`,
      kind: "print",
      size,
      paper: "matte-200g",
      priceCents: PRINT_PRICES[size],
    }),
  ),
];
