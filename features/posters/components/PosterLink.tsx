import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";

/**
 * "Create a poster" under a course that has a track, on the event page: a plain link (no script
 * of its own), so the event page's first-load JavaScript does not grow; the creator is its own page.
 */
export function PosterLink({ courseId, locale }: { courseId: number; locale: Locale }) {
  const { t } = useTranslation("posters");
  return (
    <a
      href={`${pagePath("posterNew", locale)}?course=${courseId}`}
      className="inline-flex items-center rounded-md border border-slate-300 px-2 py-1 font-semibold text-ink-800 text-xs hover:border-brand-700 hover:text-brand-700"
      rel="nofollow"
    >
      {t("creator.create")}
    </a>
  );
}
