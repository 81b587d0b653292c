import { useTranslation } from "react-i18next";
import type { Locale } from "../../shared/constants.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { type StaticPageKey, staticPagePath } from "../../shared/static-pages.ts";

const FOOTER_PAGES: StaticPageKey[] = ["terms", "legal", "privacy", "contact", "credits"];

export function SiteFooter({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-ink-500 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <p className="font-semibold text-ink-900">{t("siteName")}</p>
          <p>{t("tagline")}</p>
          <p>{t("footer.rights", { year: new Date().getFullYear() })}</p>
        </div>
        <nav aria-label={t("footer.credits")} className="flex flex-col gap-1">
          <a
            className="font-semibold text-brand-700 underline-offset-2 hover:underline"
            href={pagePath("eventNew", locale)}
          >
            {t("footer.listEvent")}
          </a>
          {FOOTER_PAGES.map((key) => (
            <a key={key} className="underline-offset-2 hover:underline" href={staticPagePath(key, locale)}>
              {t(`footer.${key}`)}
            </a>
          ))}
        </nav>
        <p className="max-w-xs text-xs" data-testid="laposte-credit">
          {t("footer.laposte")}
        </p>
      </div>
    </footer>
  );
}
