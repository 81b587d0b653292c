import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, useRouteLoaderData } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { LazyToastHost } from "../../../shared/ui/lazy-toasts.tsx";
import type { SessionUser } from "../accounts.contract.ts";

/** The member area's frame: a title and tabs between profile, the member's events and settings. */
export function AccountLayout({
  locale,
  title,
  children,
  wide = false,
}: {
  locale: Locale;
  title: string;
  children: ReactNode;
  /** Pages with grids and calendars (planning, favourites) take the site's full width. */
  wide?: boolean;
}) {
  const { t } = useTranslation("account");
  const root = useRouteLoaderData("root") as { user?: SessionUser | null } | undefined;
  const tab = ({ isActive }: { isActive: boolean }) =>
    `whitespace-nowrap rounded-t-lg border-b-2 px-2 py-2 font-semibold text-sm sm:px-3 ${isActive ? "border-brand-700 text-brand-700" : "border-transparent text-ink-700 hover:text-ink-900"}`;
  return (
    <div className={`mx-auto w-full ${wide ? "max-w-6xl" : "max-w-3xl"} px-4 py-6 sm:py-10`}>
      <h1 className="font-bold text-2xl text-ink-900 sm:text-3xl">{title}</h1>
      <nav aria-label={t("nav.label")} className="mt-4 flex gap-1 overflow-x-auto border-slate-200 border-b sm:gap-2">
        <NavLink to={pagePath("account", locale)} className={tab} end>
          {t("nav.profile")}
        </NavLink>
        <NavLink to={pagePath("planning", locale)} className={tab} end>
          {t("engagement:planning.title")}
        </NavLink>
        <NavLink to={pagePath("activities", locale)} className={tab}>
          {t("activities:nav.tab")}
        </NavLink>
        <NavLink to={pagePath("favorites", locale)} className={tab} end>
          {t("engagement:favorites.title")}
        </NavLink>
        <NavLink to={pagePath("results", locale)} className={tab} end>
          {t("results:account.tab")}
        </NavLink>
        <NavLink to={pagePath("myEvents", locale)} className={tab} end>
          {t("editor:nav.myEvents")}
        </NavLink>
        <NavLink to={pagePath("alerts", locale)} className={tab} end>
          {t("nav.alerts")}
        </NavLink>
        <NavLink to={pagePath("posters", locale)} className={tab} end>
          {t("posters:creator.mine")}
        </NavLink>
        <NavLink to={pagePath("orders", locale)} className={tab} end>
          {t("orders:nav")}
        </NavLink>
        <NavLink to={pagePath("settings", locale)} className={tab} end>
          {t("nav.settings")}
        </NavLink>
        {root?.user?.role === "admin" && (
          <NavLink to={pagePath("adminEvents", locale)} className={tab} end>
            {t("common:nav.admin")}
          </NavLink>
        )}
        {root?.user?.role === "admin" && (
          <NavLink to={pagePath("adminComments", locale)} className={tab} end>
            {t("community:admin.nav")}
          </NavLink>
        )}
        {root?.user?.role === "admin" && (
          <NavLink to={pagePath("adminActivities", locale)} className={tab} end>
            {t("activities:admin.title")}
          </NavLink>
        )}
        {root?.user?.role === "admin" && (
          <NavLink to={pagePath("adminOrders", locale)} className={tab} end>
            {t("orders:admin.nav")}
          </NavLink>
        )}
      </nav>
      <div className="mt-6">{children}</div>
      <LazyToastHost />
    </div>
  );
}
