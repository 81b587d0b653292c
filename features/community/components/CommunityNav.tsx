import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";

const SECTIONS = [
  ["community", "rankings"],
  ["communityActivity", "activity"],
  ["communityMembers", "members"],
] as const;

/** The community's three pages, as tabs. */
export function CommunityNav({ locale, current }: { locale: Locale; current: (typeof SECTIONS)[number][0] }) {
  const { t } = useTranslation("community");
  return (
    <nav aria-label={t("hub.sections")} className="mt-4 flex gap-1 overflow-x-auto border-slate-200 border-b">
      {SECTIONS.map(([page, key]) => (
        <Link
          key={page}
          to={pagePath(page, locale)}
          aria-current={page === current ? "page" : undefined}
          className={`-mb-px inline-flex min-h-11 items-center whitespace-nowrap border-b-2 px-3 font-medium ${
            page === current
              ? "border-brand-700 text-brand-700"
              : "border-transparent text-ink-700 hover:border-slate-300 hover:text-ink-900"
          }`}
        >
          {t(`hub.nav.${key}`)}
        </Link>
      ))}
    </nav>
  );
}
