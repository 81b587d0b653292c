/**
 * What members can buy: a constant table, not a database one (prices change with a release, and an
 * order keeps its own copy of what was bought: label, credits, amounts and VAT rate).
 *
 * Prices are in euro cents, VAT included (TTC), as shown to the buyer; the VAT rate is in basis
 * points (2000 = 20 %, France's standard rate for digital services sold to consumers).
 */
export const VAT_RATE_BP = 2000;

export type Product = {
  id: string;
  kind: "credits" | "print";
  /** Poster credits the product grants once paid (0 for a print). */
  credits: number;
  /** Price in cents, VAT included. */
  priceCents: number;
  vatRateBp: number;
  /** False: listed as "coming soon", not for sale yet. */
  available: boolean;
};

export const PRODUCTS: readonly Product[] = [
  { id: "credits-1", kind: "credits", credits: 1, priceCents: 490, vatRateBp: VAT_RATE_BP, available: true },
  { id: "credits-3", kind: "credits", credits: 3, priceCents: 1290, vatRateBp: VAT_RATE_BP, available: true },
  { id: "credits-10", kind: "credits", credits: 10, priceCents: 3490, vatRateBp: VAT_RATE_BP, available: true },
  { id: "print-a3", kind: "print", credits: 0, priceCents: 3900, vatRateBp: VAT_RATE_BP, available: false },
];

export const PRODUCT_IDS = PRODUCTS.map((p) => p.id) as [string, ...string[]];

export function productById(id: string): Product | undefined {
  return PRODUCTS.find((p) => p.id === id);
}

/**
 * The amount without VAT and the VAT of a price that includes it, in cents: HT rounded to the
 * nearest cent, VAT the rest, so that HT + VAT is always exactly the price paid.
 */
export function splitVat(totalCents: number, vatRateBp: number): { netCents: number; vatCents: number } {
  const netCents = Math.round((totalCents * 10_000) / (10_000 + vatRateBp));
  return { netCents, vatCents: totalCents - netCents };
}
