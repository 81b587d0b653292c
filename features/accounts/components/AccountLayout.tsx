import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { LazyToastHost } from "../../../shared/ui/lazy-toasts.tsx";
import { SectionFrame, type SectionGroup, SectionNav, sectionGroups } from "../../../shared/ui/SectionNav.tsx";
import type { SessionUser } from "../../identity/identity.contract.ts";

/** The member's pages by group, in menu order. */
export const ACCOUNT_SECTIONS: readonly SectionGroup[] = [
  {
    group: "nav.groups.activity",
    sections: [
      { page: "planning", label: "nav.planning" },
      { page: "favorites", label: "nav.favorites" },
      { page: "results", label: "nav.results" },
      { page: "activities", label: "nav.activities", prefix: true },
      { page: "alerts", label: "nav.alerts" },
    ],
  },
  {
    group: "nav.groups.creations",
    sections: [
      { page: "myEvents", label: "nav.myEvents" },
      { page: "posters", label: "nav.posters" },
      { page: "orders", label: "nav.orders" },
    ],
  },
  {
    group: "nav.groups.account",
    sections: [
      { page: "account", label: "nav.profile" },
      { page: "settings", label: "nav.settings" },
    ],
  },
];

/** Admins also find the admin area, whose own menu lists its sections (AdminLayout). */
const ADMIN_ENTRY: SectionGroup = {
  group: "nav.groups.admin",
  sections: [{ page: "admin", label: "nav.admin", prefix: true }],
};

/** The member area's frame: a title and the menu of the member's pages, grouped. */
export function AccountLayout({
  locale,
  title,
  children,
  wide = false,
}: {
  locale: Locale;
  title: string;
  children: ReactNode;
  /** Pages with grids and calendars (planning, favourites) take the whole column. */
  wide?: boolean;
}) {
  const { t } = useTranslation("account");
  const root = useRouteLoaderData("root") as { user?: SessionUser | null } | undefined;
  const admin = root?.user?.role === "admin";
  const groups = sectionGroups(admin ? [...ACCOUNT_SECTIONS, ADMIN_ENTRY] : ACCOUNT_SECTIONS, locale, t);
  return (
    <SectionFrame title={title} wide={wide} nav={<SectionNav label={t("nav.label")} groups={groups} />}>
      {children}
      <LazyToastHost />
    </SectionFrame>
  );
}
