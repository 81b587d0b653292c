import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { apiFetch } from "../../../shared/api-client.ts";
import { type ErrorCode, errorCatalogue } from "../../../shared/api-error.ts";
import type { Locale } from "../../../shared/constants.ts";
import { formatMoneyCents } from "../../../shared/format.ts";
import { forgetReturnAfterPayment, returnAfterPayment } from "../../../shared/return-after-payment.ts";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { MyOrders, Order } from "../orders.contract.ts";

export const orderDay = (iso: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "fr-FR", {
    timeZone: "Europe/Paris",
    day: "numeric",
    month: "short",
    year: "numeric",
  }).format(new Date(iso));

export const money = (cents: number, locale: Locale) => formatMoneyCents(cents, locale, { fixed: true });

const STATUS_STYLE: Record<Order["status"], string> = {
  created: "bg-slate-100 text-ink-800",
  pending: "bg-amber-50 text-amber-900",
  failed: "bg-red-50 text-red-800",
  paid: "bg-emerald-50 text-emerald-800",
  cancelled: "bg-slate-100 text-ink-800",
  deleted: "bg-slate-100 text-ink-700",
};

export function StatusBadge({ status }: { status: Order["status"] }) {
  const { t } = useTranslation("orders");
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 font-semibold text-xs ${STATUS_STYLE[status]}`}>
      {t(`status.${status}`)}
    </span>
  );
}

/** After Stripe sends the buyer back (/ext/payment/check/{uid} → here with ?order=uid): what happened. */
function Outcome({
  order,
  locale,
  errorMessage,
}: {
  order: Order | null;
  locale: Locale;
  errorMessage: string | null;
}) {
  const { t } = useTranslation("orders");
  const paid = order?.status === "paid";
  // Back where the member was when they went to buy (their poster), once the order is paid.
  const [back, setBack] = useState<string | null>(null);
  useEffect(() => {
    if (paid) setBack(returnAfterPayment());
  }, [paid]);
  if (errorMessage) {
    return (
      <p role="alert" className="mb-6 rounded-xl border border-red-200 bg-red-50 p-4 text-red-900">
        {errorMessage}
      </p>
    );
  }
  if (!order) return null;
  const text = paid
    ? t("outcome.paid", { count: order.credits })
    : order.status === "pending" || order.status === "created"
      ? t("outcome.pending")
      : order.status === "failed"
        ? t("outcome.failed")
        : t("outcome.cancelled");
  return (
    <div
      role="status"
      data-testid="payment-outcome"
      className={`mb-6 rounded-xl border p-4 ${paid ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-amber-200 bg-amber-50 text-amber-950"}`}
    >
      <p>{text}</p>
      {paid && back && (
        <a
          className={`${PRIMARY_BUTTON} mt-3`}
          href={back}
          onClick={forgetReturnAfterPayment}
          data-testid="return-after-payment"
        >
          {t("outcome.back")}
        </a>
      )}
      {!paid && order.retryable && (
        <div className="mt-3 flex flex-wrap gap-2">
          {order.status === "pending" && (
            <a className={SECONDARY_BUTTON} href={`/ext/payment/check/${order.uid}?lang=${locale}`}>
              {t("outcome.check")}
            </a>
          )}
          <a className={PRIMARY_BUTTON} href={`/ext/payment/retry/${order.uid}?lang=${locale}`}>
            {t("list.retry")}
          </a>
        </div>
      )}
    </div>
  );
}

export function OrdersPanel({
  data,
  locale,
  outcome,
  error,
}: {
  data: MyOrders;
  locale: Locale;
  outcome: Order | null;
  error: ErrorCode | null;
}) {
  const { t } = useTranslation("orders");
  const { t: tc } = useTranslation("common");
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);

  async function remove(uid: string) {
    setBusy(uid);
    try {
      const response = await apiFetch(`/api/orders/${uid}`, { method: "DELETE" });
      if (response.ok) {
        void showToast("success", t("list.removed"));
        await revalidator.revalidate();
      } else {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        void showToast("error", body?.error?.message ?? tc("errors.generic"));
      }
    } finally {
      setBusy(null);
    }
  }

  return (
    <div>
      <Outcome order={outcome} locale={locale} errorMessage={error ? tc(`errors.${errorKey(error)}`) : null} />
      <section aria-labelledby="credits-balance" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <p id="credits-balance" className="font-semibold text-ink-900 text-lg" data-testid="credit-balance">
          {data.credits > 0 ? t("balance", { count: data.credits }) : t("balanceNone")}
        </p>
        <p className="mt-1 text-ink-700 text-sm">{t("balanceHint")}</p>
      </section>

      <section aria-labelledby="buy-credits" className="mt-8">
        <h2 id="buy-credits" className="font-bold text-ink-900 text-xl">
          {t("buy.title")}
        </h2>
        {!data.paymentAvailable && (
          <p className="mt-2 rounded-lg bg-amber-50 p-3 text-amber-950" data-testid="payment-unavailable">
            {t("buy.unavailable")}
          </p>
        )}
        <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {data.products.map((product) => {
            const name = product.kind === "credits" ? t("buy.credits", { count: product.credits }) : t("buy.print");
            const price = money(product.priceCents, locale);
            return (
              <li key={product.id} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
                <span className="font-semibold text-ink-900">{name}</span>
                <span className="mt-1 text-ink-900">
                  <span className="font-bold text-2xl tabular-nums">{price}</span>{" "}
                  <span className="text-ink-700 text-sm">{t("buy.priceTtc")}</span>
                </span>
                {product.kind === "credits" && product.credits > 1 && (
                  <span className="text-ink-700 text-sm">
                    {t("buy.unitPrice", { price: money(Math.round(product.priceCents / product.credits), locale) })}
                  </span>
                )}
                <span className="mt-auto pt-3">
                  {!product.available ? (
                    <span className="inline-block rounded-full bg-slate-100 px-3 py-1 text-ink-700 text-sm">
                      {t("buy.comingSoon")}
                    </span>
                  ) : data.paymentAvailable ? (
                    <a
                      className={PRIMARY_BUTTON}
                      href={`/ext/payment/price/${product.id}?lang=${locale}`}
                      aria-label={t("buy.actionLabel", { product: name, price })}
                    >
                      {t("buy.action")}
                    </a>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
        {data.paymentAvailable && <p className="mt-3 text-ink-700 text-sm">{t("buy.secure")}</p>}
      </section>

      <section aria-labelledby="order-history" className="mt-10">
        <h2 id="order-history" className="font-bold text-ink-900 text-xl">
          {t("list.title")}
        </h2>
        {data.orders.length === 0 ? (
          <p className="mt-3 text-ink-700">{t("list.empty")}</p>
        ) : (
          <ul
            className="mt-4 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
            data-testid="orders"
          >
            {data.orders.map((order) => (
              <li key={order.uid} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-4" data-order={order.uid}>
                <span className="min-w-0 basis-full sm:basis-auto sm:flex-1">
                  <span className="block font-semibold text-ink-900">{t(`products.${order.productId}`)}</span>
                  <span className="block text-ink-700 text-sm">{orderDay(order.createdAt, locale)}</span>
                </span>
                <span className="font-semibold text-ink-900 tabular-nums" data-testid="order-amount">
                  {money(order.amountCents, locale)}
                </span>
                <StatusBadge status={order.status} />
                <span className="flex flex-wrap gap-2">
                  {order.receiptUrl && order.receiptNumber && (
                    <a
                      className="text-brand-700 text-sm underline"
                      href={`${order.receiptUrl}?lang=${locale}`}
                      aria-label={t("list.receiptLabel", { number: order.receiptNumber })}
                      download
                    >
                      {t("list.receipt", { number: order.receiptNumber })}
                    </a>
                  )}
                  {order.retryable && data.paymentAvailable && (
                    <a
                      className="text-brand-700 text-sm underline"
                      href={`/ext/payment/retry/${order.uid}?lang=${locale}`}
                      aria-label={t("list.retryLabel", { date: orderDay(order.createdAt, locale) })}
                    >
                      {t("list.retry")}
                    </a>
                  )}
                  {order.status !== "paid" && order.status !== "pending" && (
                    <button
                      type="button"
                      className="text-ink-700 text-sm underline"
                      disabled={busy === order.uid}
                      onClick={() => void remove(order.uid)}
                    >
                      {t("list.remove")}
                    </button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      {data.ledger.length > 0 && (
        <section aria-labelledby="credit-ledger" className="mt-10">
          <h2 id="credit-ledger" className="font-bold text-ink-900 text-xl">
            {t("ledger.title")}
          </h2>
          <ul className="mt-3 space-y-1 text-ink-800">
            {data.ledger.map((line) => (
              <li key={`${line.createdAt}-${line.kind}-${line.orderUid ?? line.posterId ?? ""}`} className="flex gap-3">
                <span className="w-28 text-ink-700 text-sm">{orderDay(line.createdAt, locale)}</span>
                <span className="flex-1">{t(`ledger.${line.kind}`)}</span>
                <span className="font-semibold tabular-nums">
                  {line.delta > 0 ? `+${line.delta}` : `−${-line.delta}`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

const errorKey = (code: ErrorCode) => errorCatalogue[code].key.slice("errors.".length);
