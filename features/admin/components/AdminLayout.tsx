import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { LazyToastHost } from "../../../shared/ui/lazy-toasts.tsx";
import { SectionFrame, SectionNav, sectionGroups } from "../../../shared/ui/SectionNav.tsx";
import { ADMIN_SECTIONS, type AdminCounts } from "../admin-sections.ts";

/** The loader data of the admin shell (app/routes/admin-shell.tsx), the parent of every admin page. */
export type AdminShellData = { counts: AdminCounts };
export const adminShellRouteId = (locale: Locale) => `${locale}.adminShell`;

/**
 * The admin area's frame: a title, an optional line under it, and the menu of the admin screens
 * in groups, each with the count of what waits there (from the shell's loader).
 */
export function AdminLayout({
  locale,
  title,
  lead,
  children,
  wide = true,
}: {
  locale: Locale;
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  const { t } = useTranslation("admin");
  const shell = useRouteLoaderData(adminShellRouteId(locale)) as AdminShellData | undefined;
  const groups = sectionGroups(ADMIN_SECTIONS, locale, t).map((group, g) => ({
    ...group,
    items: group.items.map((item, i) => {
      const counter = ADMIN_SECTIONS[g]?.sections[i]?.counter;
      const count = counter ? (shell?.counts[counter] ?? 0) : 0;
      return counter && count > 0 ? { ...item, badge: { count, label: t(`waiting.${counter}`, { count }) } } : item;
    }),
  }));
  return (
    <SectionFrame title={title} lead={lead} wide={wide} nav={<SectionNav label={t("label")} groups={groups} />}>
      {children}
      <LazyToastHost />
    </SectionFrame>
  );
}
