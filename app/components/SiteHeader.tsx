import { Globe, LogIn, LogOut, ShieldCheck, UserRound, Users } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useViewer } from "../../features/identity/components/viewer.tsx";
import type { Locale } from "../../shared/constants.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { Logo } from "./Logo.tsx";

export function SiteHeader({ locale, alternateHref }: { locale: Locale; alternateHref: string }) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const user = viewer.user;
  const other: Locale = locale === "fr" ? "en" : "fr";
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center gap-2 px-3 py-3 sm:gap-4 sm:px-4">
        <Link
          to={pagePath("home", locale)}
          className="flex items-center gap-2 rounded-md font-bold text-lg text-ink-900"
        >
          <Logo />
          <span>{t("siteName")}</span>
        </Link>
        <nav aria-label={t("nav.main")} className="ml-auto flex items-center gap-1 text-sm sm:gap-3">
          <Link
            to={pagePath("home", locale)}
            className="rounded-md px-1.5 py-2 font-medium sm:px-2 text-ink-700 hover:bg-slate-100 hover:text-ink-900"
          >
            {t("nav.races")}
          </Link>
          <Link
            to={pagePath("community", locale)}
            className="flex items-center gap-1 rounded-md px-1.5 py-2 font-medium sm:px-2 text-ink-700 hover:bg-slate-100 hover:text-ink-900"
            data-testid="community-link"
          >
            <Users className="h-4 w-4 sm:hidden" aria-hidden="true" />
            <span className="max-sm:sr-only">{t("nav.community")}</span>
          </Link>
          {user ? (
            <>
              <Link
                to={pagePath("account", locale)}
                className="flex items-center gap-2 rounded-md px-1.5 py-1.5 font-medium sm:px-2 text-ink-700 hover:bg-slate-100 hover:text-ink-900"
                data-testid="account-link"
              >
                {user.photoUrl ? (
                  <img
                    src={user.photoUrl}
                    alt=""
                    width={28}
                    height={28}
                    className="h-7 w-7 rounded-full object-cover"
                  />
                ) : (
                  <span
                    aria-hidden="true"
                    className="flex h-7 w-7 items-center justify-center rounded-full bg-brand-700 font-bold text-white text-xs"
                  >
                    {user.displayName.slice(0, 1).toUpperCase()}
                  </span>
                )}
                <span className="max-w-[8rem] truncate max-sm:sr-only">{user.displayName}</span>
                <span className="sr-only">— {t("nav.account")}</span>
              </Link>
              {user.role === "admin" && (
                <Link
                  to={pagePath("adminEvents", locale)}
                  className="flex items-center gap-1 rounded-md px-1.5 py-2 font-medium sm:px-2 text-ink-700 hover:bg-slate-100 hover:text-ink-900 max-sm:hidden"
                  data-testid="admin-link"
                >
                  <ShieldCheck className="h-4 w-4" aria-hidden="true" />
                  <span>{t("nav.admin")}</span>
                </Link>
              )}
              <a
                href={`/logout?lang=${locale}`}
                className="flex items-center gap-1 rounded-md px-1.5 py-2 font-medium sm:px-2 text-ink-700 hover:bg-slate-100 hover:text-ink-900"
                data-testid="logout-link"
              >
                <LogOut className="h-4 w-4" aria-hidden="true" />
                <span className="max-sm:sr-only">{t("nav.logout")}</span>
              </a>
            </>
          ) : viewer.status === "loading" ? (
            // A member's copy of a shared page, before the browser knows who they are.
            <Link
              to={pagePath("account", locale)}
              className="flex items-center gap-2 rounded-md px-1.5 py-1.5 font-medium sm:px-2 text-ink-700 hover:bg-slate-100 hover:text-ink-900"
              data-testid="account-link"
            >
              <span
                aria-hidden="true"
                className="flex h-7 w-7 items-center justify-center rounded-full bg-slate-200 text-ink-700"
              >
                <UserRound className="h-4 w-4" />
              </span>
              <span className="max-sm:sr-only">{t("nav.account")}</span>
            </Link>
          ) : (
            <Link
              to={pagePath("login", locale)}
              className="flex items-center gap-1 rounded-md px-1.5 py-2 font-medium sm:px-2 text-ink-700 hover:bg-slate-100 hover:text-ink-900"
              data-testid="login-link"
            >
              <LogIn className="h-4 w-4" aria-hidden="true" />
              <span className="max-sm:sr-only">{t("nav.login")}</span>
            </Link>
          )}
          <a
            href={alternateHref}
            hrefLang={other}
            lang={other}
            className="flex items-center gap-1 rounded-md border border-slate-300 px-2 py-1.5 font-medium text-ink-700 hover:bg-slate-100"
            // Named by what it shows, then what it does (the visible label starts the name).
            aria-label={`${other.toUpperCase()} – ${t("nav.switchTo")}`}
            data-testid="language-switch"
          >
            <Globe className="h-4 w-4 max-sm:hidden" aria-hidden="true" />
            <span>{other.toUpperCase()}</span>
          </a>
        </nav>
      </div>
    </header>
  );
}
