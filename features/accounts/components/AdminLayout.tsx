import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { LazyToastHost } from "../../../shared/ui/lazy-toasts.tsx";
import { SectionFrame, SectionNav } from "../../../shared/ui/SectionNav.tsx";
import { type SectionGroup, sectionGroups } from "./AccountLayout.tsx";

/**
 * The admin area's pages by group, in menu order (labels are i18n keys of the account namespace):
 * a new admin page is one more line here once its route exists.
 */
export const ADMIN_SECTIONS: readonly SectionGroup[] = [
  {
    group: "admin.groups.moderation",
    sections: [
      { page: "adminEvents", label: "admin.nav.events" },
      { page: "adminComments", label: "admin.nav.comments" },
      { page: "adminActivities", label: "admin.nav.activities" },
      { page: "adminResultClaims", label: "admin.nav.resultClaims" },
    ],
  },
  {
    group: "admin.groups.shop",
    sections: [{ page: "adminOrders", label: "admin.nav.orders" }],
  },
  {
    group: "admin.groups.back",
    sections: [{ page: "account", label: "admin.nav.account" }],
  },
];

/** The admin area's frame: a title, an optional line under it, and the menu of the admin pages. */
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
  const { t } = useTranslation("account");
  return (
    <SectionFrame
      title={title}
      lead={lead}
      wide={wide}
      nav={<SectionNav label={t("admin.label")} groups={sectionGroups(ADMIN_SECTIONS, locale, t)} />}
    >
      {children}
      <LazyToastHost />
    </SectionFrame>
  );
}
