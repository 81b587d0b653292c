import { useTranslation } from "react-i18next";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { OrdersPanel } from "../../features/orders/components/OrdersPanel.tsx";
import type { Order } from "../../features/orders/orders.contract.ts";
import { isApiError, isErrorCode } from "../../shared/api-error.ts";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/orders";

/** The account area's orders tab: credits, buying more, past orders and their receipts. */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  const url = new URL(request.url);
  const uid = url.searchParams.get("order");
  const error = url.searchParams.get("error");
  let outcome: Order | null = null;
  if (uid && /^[A-Za-z0-9_-]{8,64}$/.test(uid)) {
    outcome = await context.services.orders.get(uid, context.user).catch((e: unknown) => {
      if (isApiError(e)) return null;
      throw e;
    });
  }
  return {
    data: await context.services.orders.mine(context.user.id),
    outcome,
    error: isErrorCode(error) ? error : null,
  };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "orders:title", description: "orders:description", noIndex: true });

export default function OrdersPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("orders");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AccountLayout locale={locale} title={t("title")}>
      <OrdersPanel data={loaderData.data} outcome={loaderData.outcome} error={loaderData.error} locale={locale} />
    </AccountLayout>
  );
}
