import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { ResultList } from "../../features/search/components/ResultList.tsx";
import { pagePath } from "../../shared/i18n/pages.ts";
import { PRIMARY_BUTTON } from "../../shared/ui/fields.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { searchSlots } from "../components/search-slots.tsx";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/favorites";

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  return context.services.engagement.favorites(context.user.id);
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "engagement:favorites.title",
    description: "engagement:favorites.description",
    noIndex: true,
  });

export default function FavoritesPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("engagement");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AccountLayout locale={locale} title={t("favorites.title")} wide>
      {loaderData.items.length ? (
        <ResultList items={loaderData.items} layout="grid" locale={locale} wide slots={searchSlots(locale)} />
      ) : (
        <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <p className="text-ink-700">{t("favorites.empty")}</p>
          <Link to={pagePath("home", locale)} className={`${PRIMARY_BUTTON} mt-4 inline-flex`}>
            {t("planning.find")}
          </Link>
        </div>
      )}
    </AccountLayout>
  );
}
