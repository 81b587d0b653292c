import { useEffect, useMemo } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
} from "react-router";
import { MemberEventsProvider } from "../features/engagement/components/member-events.tsx";
import { ViewerProvider } from "../features/identity/components/viewer.tsx";
import type { SessionUser } from "../features/identity/identity.contract.ts";
import type { Locale } from "../shared/constants.ts";
import { createI18n, localeFromPath } from "../shared/i18n/index.ts";
import { alternateHref as alternateHrefOf } from "./alternates.ts";
import "./app.css";
import type { Route } from "./+types/root";
import { ErrorPage } from "./components/ErrorPage.tsx";
import { SiteFooter } from "./components/SiteFooter.tsx";
import { SiteHeader } from "./components/SiteHeader.tsx";

export function loader({ context }: Route.LoaderArgs) {
  return {
    publicUrl: context.config.PUBLIC_URL,
    mapStyleUrl: context.config.MAP_STYLE_URL,
    user: context.user,
    // A member's copy of a page that is the same for everyone: the browser asks who they are.
    memberShell: context.memberShell === true,
  };
}

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

const instances = new Map<Locale, ReturnType<typeof createI18n>>();
function i18nFor(locale: Locale) {
  // One instance per locale in the browser; on the server each render gets the cached one too
  // (instances hold only bundled resources and the language, no per-request state).
  let instance = instances.get(locale);
  if (!instance) {
    instance = createI18n(locale);
    instances.set(locale, instance);
  }
  return instance;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  const locale = localeFromPath(location.pathname);
  const i18n = useMemo(() => i18nFor(locale), [locale]);
  const matches = useMatches();
  const other: Locale = locale === "fr" ? "en" : "fr";
  const alternateHref = alternateHrefOf(matches, other, location);
  const root = matches.find((m) => m.id === "root")?.data as
    | { user?: SessionUser | null; memberShell?: boolean }
    | undefined;
  // Marks the document once React has hydrated it: the browser journeys (tests/e2e) wait for it
  // before typing or clicking in a freshly loaded page, whose handlers are not attached before.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#f05a1a" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <I18nextProvider i18n={i18n}>
          <ViewerProvider user={root?.user ?? null} memberShell={root?.memberShell === true}>
            <MemberEventsProvider>
              <SkipLink />
              <SiteHeader locale={locale} alternateHref={alternateHref} />
              <main id="main" className="flex-1">
                {children}
              </main>
              <SiteFooter locale={locale} />
            </MemberEventsProvider>
          </ViewerProvider>
        </I18nextProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
    >
      {t("nav.skipToContent")}
    </a>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorPage kind={error.data?.kind === "item" ? "item" : "page"} />;
  }
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorPage kind="generic" />;
}
