import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import { money, orderDay, StatusBadge } from "../../features/orders/components/OrdersPanel.tsx";
import { ORDER_STATUSES, type OrderStatus } from "../../features/orders/order-status.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { INPUT_CLASS, SECONDARY_BUTTON } from "../../shared/ui/fields.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/admin-orders";

/** Sales and orders (GET /api/admin/orders): every order, newest first, and what was sold. */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (context.user.role !== "admin") throw data({ kind: "forbidden" }, { status: 403 });
  const status = new URL(request.url).searchParams.get("status");
  const filter = (ORDER_STATUSES as readonly string[]).includes(status ?? "") ? (status as OrderStatus) : undefined;
  return { ...(await context.services.orders.adminList({ status: filter })), status: filter ?? null };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "orders:admin.title", description: "orders:admin.description", noIndex: true });

export default function AdminOrdersPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("orders");
  const locale = useLocale();
  const { totals, orders, status } = loaderData;
  const figures: [string, string][] = [
    [t("admin.paidCount", { count: totals.paidCount }), money(totals.amountCents, locale)],
    [t("admin.totalNet"), money(totals.netCents, locale)],
    [t("admin.totalVat"), money(totals.vatCents, locale)],
    [t("admin.creditsSold"), String(totals.creditsSold)],
  ];
  return (
    <AdminLayout locale={locale} title={t("admin.title")} wide>
      <dl className="grid gap-3 sm:grid-cols-4" data-testid="sales-totals">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-ink-700 text-sm">{label}</dt>
            <dd className="font-bold text-2xl text-ink-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <Form method="get" className="mt-6 flex flex-wrap items-end gap-2">
        <label className="block">
          <span className="mb-1 block font-medium text-ink-900 text-sm">{t("admin.filter")}</span>
          <select name="status" defaultValue={status ?? ""} className={INPUT_CLASS}>
            <option value="">{t("admin.all")}</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)} ({totals.byStatus[s] ?? 0})
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={SECONDARY_BUTTON}>
          {t("admin.apply")}
        </button>
      </Form>
      {orders.length === 0 ? (
        <p className="mt-6 text-ink-700">{t("admin.empty")}</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls; the keyboard must reach it.
        <section className="mt-6 overflow-x-auto" tabIndex={0} aria-label={t("admin.title")}>
          <table className="w-full text-left text-sm" data-testid="admin-orders">
            <thead className="border-slate-200 border-b text-ink-700">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  {t("list.date")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("admin.client")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("list.item")}
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  {t("list.amount")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("list.status")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {orders.map((order) => (
                <tr key={order.uid}>
                  <td className="py-2 pr-3 whitespace-nowrap">{orderDay(order.createdAt, locale)}</td>
                  <td className="py-2 pr-3">
                    {order.user.name}
                    <span className="block text-ink-700 text-xs">{order.user.email}</span>
                  </td>
                  <td className="py-2 pr-3">
                    {t(`products.${order.productId}`)}
                    {order.receiptNumber && <span className="block text-ink-700 text-xs">{order.receiptNumber}</span>}
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{money(order.amountCents, locale)}</td>
                  <td className="py-2 pr-3">
                    <StatusBadge status={order.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </AdminLayout>
  );
}
