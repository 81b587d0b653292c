/**
 * The PDF receipt of a paid order (pdfkit, fonts embedded: Noto Sans, so the file does not depend
 * on the reader's fonts). French invoicing mentions: the seller's name, address, registration
 * (SIRET/RCS) and VAT number from the LEGAL_* settings, the receipt's number in one unbroken
 * series, its date, the buyer, the item, and the amounts without VAT (HT), the VAT and the total
 * (TTC) with the VAT rate.
 */
import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import type { Locale } from "../../shared/constants.ts";
import { formatMoneyCents, formatNumber } from "../../shared/format.ts";
import { createI18n } from "../../shared/i18n/index.ts";
import type { Order } from "./orders.contract.ts";

const require = createRequire(import.meta.url);
const FONT_REGULAR = require.resolve("@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff");
const FONT_BOLD = require.resolve("@fontsource/noto-sans/files/noto-sans-latin-600-normal.woff");

/** The day of payment in France: "24/11/2026", "24 November 2026". */
export function paidDay(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "fr-FR", {
    timeZone: "Europe/Paris",
    day: locale === "en" ? "numeric" : "2-digit",
    month: locale === "en" ? "long" : "2-digit",
    year: "numeric",
  }).format(new Date(iso));
}

export type Seller = { name: string; address: string; registration: string; vatNumber: string; email: string };

export async function receiptPdf(input: {
  order: Order;
  buyer: { email: string; firstName: string; lastName: string } | null;
  seller: Seller;
  locale: Locale;
}): Promise<Buffer> {
  const { order, buyer, seller, locale } = input;
  const t = createI18n(locale).getFixedT(locale, "orders");
  const money = (cents: number) => formatMoneyCents(cents, locale, { fixed: true });
  const missing = t("receipt.notSet");
  const doc = new PDFDocument({
    size: "A4",
    margin: 56,
    info: { Title: `${t("receipt.title")} ${order.receiptNumber}`, Author: seller.name || "Dossard" },
  });
  doc.registerFont("regular", FONT_REGULAR);
  doc.registerFont("bold", FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = 56;
  const width = doc.page.width - 112;
  doc.font("bold").fontSize(20).fillColor("#111827").text(t("receipt.title"), left, 56);
  doc.font("regular").fontSize(10).fillColor("#374151");
  doc.text(`${t("receipt.number")} ${order.receiptNumber}`);
  doc.text(`${t("receipt.date")} ${order.paidAt ? paidDay(order.paidAt, locale) : ""}`);
  doc.text(`${t("receipt.order")} ${order.uid}`);

  const top = 160;
  doc.font("bold").fontSize(10).fillColor("#111827").text(t("receipt.seller"), left, top);
  doc.font("regular").fillColor("#374151");
  doc.text(seller.name || missing, { width: width / 2 - 10 });
  doc.text(seller.address || missing, { width: width / 2 - 10 });
  doc.text(`${t("receipt.registration")} ${seller.registration || missing}`, { width: width / 2 - 10 });
  doc.text(`${t("receipt.vatNumber")} ${seller.vatNumber || missing}`, { width: width / 2 - 10 });
  if (seller.email) doc.text(seller.email, { width: width / 2 - 10 });

  const right = left + width / 2 + 10;
  doc.font("bold").fillColor("#111827").text(t("receipt.buyer"), right, top);
  doc.font("regular").fillColor("#374151");
  if (buyer) {
    doc.text(`${buyer.firstName} ${buyer.lastName}`.trim(), right, undefined, { width: width / 2 - 10 });
    doc.text(buyer.email, right, undefined, { width: width / 2 - 10 });
  }

  // The item line and the totals.
  let y = 300;
  const cols = [left, left + 250, left + 310, left + 390];
  doc.font("bold").fillColor("#111827");
  doc.text(t("receipt.item"), cols[0], y);
  doc.text(t("receipt.quantity"), cols[1], y);
  doc.text(t("receipt.unitNet"), cols[2], y);
  doc.text(t("receipt.lineNet"), cols[3], y, { width: width - (cols[3] - left), align: "right" });
  y += 18;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .strokeColor("#d1d5db")
    .stroke();
  y += 8;
  doc.font("regular").fillColor("#374151");
  doc.text(t(`products.${order.productId}`), cols[0], y, { width: 240 });
  doc.text("1", cols[1], y);
  doc.text(money(order.netCents), cols[2], y);
  doc.text(money(order.netCents), cols[3], y, { width: width - (cols[3] - left), align: "right" });
  y += 40;
  const rate = formatNumber(order.vatRateBp / 100, locale, { maximumFractionDigits: 2 });
  const totals: [string, string, boolean][] = [
    [t("receipt.totalNet"), money(order.netCents), false],
    [t("receipt.vat", { rate }), money(order.vatCents), false],
    [t("receipt.totalGross"), money(order.amountCents), true],
  ];
  for (const [label, value, strong] of totals) {
    doc.font(strong ? "bold" : "regular").fillColor(strong ? "#111827" : "#374151");
    doc.text(label, left + 250, y, { width: 150 });
    doc.text(value, cols[3], y, { width: width - (cols[3] - left), align: "right" });
    y += 18;
  }
  y += 20;
  doc.font("regular").fontSize(9).fillColor("#4b5563");
  doc.text(t("receipt.paid", { date: order.paidAt ? paidDay(order.paidAt, locale) : "" }), left, y, {
    width,
  });
  doc.text(t("receipt.legal"), { width });
  doc.end();
  return done;
}
