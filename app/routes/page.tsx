import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { localeFromPath } from "../../shared/i18n/index.ts";
import {
  LEGAL_SETTING_NAMES,
  type LegalSettings,
  STATIC_PAGES,
  type StaticPageKey,
  staticPageFromSlug,
  staticPagePath,
} from "../../shared/static-pages.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/page";

/** Pages whose text names whoever runs the site (LEGAL_* settings). */
const NEEDS_SETTINGS = new Set<StaticPageKey>(["legal", "privacy", "contact"]);

export function loader({ params, request, context }: Route.LoaderArgs) {
  const locale = localeFromPath(new URL(request.url).pathname);
  const found = staticPageFromSlug(params.slug ?? "", locale);
  if (!found) throw data({ kind: "item" }, { status: 404 });
  // The other language's slug, or an old one: the page's address in this language.
  if (!found.exact) throw redirect(staticPagePath(found.key, locale), 301);
  const legal = NEEDS_SETTINGS.has(found.key) ? (context.config.legal ?? null) : null;
  let mapHost: string | null = null;
  if (found.key === "privacy" && context.config.MAP_STYLE_URL) {
    try {
      mapHost = new URL(context.config.MAP_STYLE_URL).hostname;
    } catch {
      mapHost = context.config.MAP_STYLE_URL;
    }
  }
  return { key: found.key, legal, mapHost };
}

export const handle = {
  /** The same for everyone: members get the visitors' copy (server/react-router.server.ts). */
  shared: true,
  /** The language switch and hreflang: the same page under its slug in the other language. */
  alternateParams: (params: Record<string, string | undefined>, to: "fr" | "en") => {
    const found = staticPageFromSlug(params.slug ?? "", to === "fr" ? "en" : "fr");
    return found ? { slug: STATIC_PAGES[found.key][to] } : params;
  },
};

export const meta: Route.MetaFunction = (args) =>
  args.data
    ? routeMeta(args, { title: `pages:${args.data.key}.title`, description: `pages:${args.data.key}.description` })
    : routeMeta(args, {
        title: "common:errors.itemNotFoundTitle",
        description: "common:errors.itemNotFound",
        noIndex: true,
        noAlternates: true,
      });

type Section = { heading: string; body: string[] };

export default function StaticPageView({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  const { key, legal, mapHost } = loaderData;
  // A setting left empty reads "not provided": visitors never see setting names (the admin area
  // lists what is left to fill in).
  const value = (field: keyof LegalSettings) => legal?.[field] || t("missing");
  const values: Record<string, string> = legal
    ? {
        ...(Object.fromEntries(
          (Object.keys(LEGAL_SETTING_NAMES) as (keyof LegalSettings)[]).map((field) => [field, value(field)]),
        ) as Record<string, string>),
        mapNotice: mapHost ? t("mapProvider", { host: mapHost }) : t("mapOffline"),
      }
    : {};
  const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
  const sections = t(`${key}.sections`, { returnObjects: true }) as Section[] | string;
  const body = t(`${key}.body`, { returnObjects: true }) as string[] | string;
  return (
    <article className="mx-auto max-w-3xl px-4 py-10" data-page={key}>
      <h1 className="font-bold text-3xl text-ink-900">{t(`${key}.title`)}</h1>
      {Array.isArray(sections) ? (
        <div className="mt-6 space-y-8">
          {sections.map((section) => (
            <section key={section.heading}>
              <h2 className="font-semibold text-ink-900 text-xl">{section.heading}</h2>
              <div className="mt-2 space-y-2 text-ink-700 leading-relaxed">
                {section.body.map((paragraph) => (
                  <p key={paragraph}>{fill(paragraph)}</p>
                ))}
              </div>
            </section>
          ))}
        </div>
      ) : null}
      {Array.isArray(body) ? (
        <div className="mt-6 space-y-4 text-ink-700 leading-relaxed">
          {body.map((paragraph) => (
            <p key={paragraph}>{fill(paragraph)}</p>
          ))}
        </div>
      ) : null}
    </article>
  );
}
