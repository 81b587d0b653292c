import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { type PageId, pagePath } from "../../../shared/i18n/pages.ts";
import { LazyToastHost } from "../../../shared/ui/lazy-toasts.tsx";
import { SectionFrame, SectionNav, type SectionNavGroup } from "../../../shared/ui/SectionNav.tsx";
import type { SessionUser } from "../../identity/identity.contract.ts";

type Section = { page: PageId; label: string; prefix?: boolean };
/** A labelled group of a section menu (its label and its pages' labels: i18n keys of the account namespace). */
export type SectionGroup = { group: string; sections: readonly Section[] };

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

/** The groups of a section menu, translated, with each page's path in the locale. */
export function sectionGroups(
  groups: readonly SectionGroup[],
  locale: Locale,
  t: (key: string) => string,
): SectionNavGroup[] {
  return groups.map(({ group, sections }) => ({
    label: t(group),
    items: sections.map(({ page, label, prefix }) => ({ href: pagePath(page, locale), label: t(label), prefix })),
  }));
}

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
