import type { MetaDescriptor } from "react-router";
import type { Locale } from "../shared/constants.ts";
import { createI18n, localeFromPath } from "../shared/i18n/index.ts";
import { alternatePath } from "./alternates.ts";

type MetaArgs = {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; params: Record<string, string | undefined>; data?: unknown } | undefined>;
};

const translators = { fr: createI18n("fr"), en: createI18n("en") };

export type PageMetaInput = {
  /** i18n keys ("ns:key") or literal text with `literal: true`. */
  title?: string;
  description?: string;
  image?: string;
  values?: Record<string, string | number>;
  literal?: boolean;
  page?: string;
};

export function routeMeta(args: MetaArgs, input: PageMetaInput): MetaDescriptor[] {
  const locale: Locale = localeFromPath(args.location.pathname);
  const t = translators[locale].t;
  const text = (value?: string) => (value === undefined ? undefined : input.literal ? value : t(value, input.values));
  const root = args.matches.find((m) => m?.id === "root")?.data as { publicUrl?: string } | undefined;
  const publicUrl = (root?.publicUrl ?? "http://localhost:3000").replace(/\/$/, "");
  const matches = args.matches.filter(Boolean) as never[];
  const other: Locale = locale === "fr" ? "en" : "fr";
  const title = `${text(input.title) ?? ""} | ${t("common:siteName")}`;
  const description = text(input.description) ?? t("common:tagline");
  const url = `${publicUrl}${args.location.pathname}`;
  return [
    { title },
    { name: "description", content: description.slice(0, 140) },
    { tagName: "link", rel: "canonical", href: url },
    { tagName: "link", rel: "alternate", hrefLang: locale, href: url },
    { tagName: "link", rel: "alternate", hrefLang: other, href: `${publicUrl}${alternatePath(matches, other, args.location.pathname)}` },
    { property: "og:title", content: title },
    { property: "og:description", content: description.slice(0, 140) },
    { property: "og:url", content: url },
  ];
}
