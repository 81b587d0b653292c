/**
 * What a poster can be bought as (GET /api/poster/products): the digital export (one credit) and
 * printed posters per paper size. Prices in euro cents, VAT included — one table, read by the
 * orders feature for its checkout.
 */
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
  { id: "credits-1", kind: "credits", credits: 1, priceCents: 490 },
  { id: "credits-3", kind: "credits", credits: 3, priceCents: 1190 },
  { id: "credits-10", kind: "credits", credits: 10, priceCents: 2990 },
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
