import type { MetaDescriptor } from "react-router";
import type { Locale } from "../shared/constants.ts";
import { createI18n, localeFromPath } from "../shared/i18n/index.ts";
import { buildMeta, type PageMetaInput } from "../shared/meta.ts";
import { alternateHref } from "./alternates.ts";

type MetaArgs = {
  location: { pathname: string; search?: string };
  matches: ReadonlyArray<{ id: string; params: Record<string, string | undefined>; data?: unknown } | undefined>;
};

const translators = { fr: createI18n("fr"), en: createI18n("en") };

/** Text of a page's metadata: i18n keys ("ns:key") translated with `values`, or literal text. */
export type RouteMetaInput = Omit<PageMetaInput, "locale" | "path" | "origin" | "alternates"> & {
  values?: Record<string, string | number>;
  /** Titles and descriptions are literal text (an event's name), not i18n keys. */
  literal?: boolean;
  /** Error pages have no alternate language version. */
  noAlternates?: boolean;
};

const TEXT_FIELDS = ["title", "pageTitle", "headerTitle", "description", "pageDesc", "headerText"] as const;

/**
 * A route module's `meta`: the spec's fallbacks (shared/meta.ts) with the public origin from the
 * root loader and hreflang alternates from the matched localized route.
 */
export function routeMeta(args: MetaArgs, input: RouteMetaInput): MetaDescriptor[] {
  const locale: Locale = localeFromPath(args.location.pathname);
  const t = translators[locale].t;
  const root = args.matches.find((m) => m?.id === "root")?.data as { publicUrl?: string } | undefined;
  const matches = args.matches.filter(Boolean) as never[];
  const text: Partial<PageMetaInput> = {};
  for (const field of TEXT_FIELDS) {
    const value = input[field];
    if (value) text[field] = input.literal ? value : t(value, input.values);
  }
  return buildMeta({
    ...input,
    ...text,
    locale,
    path: args.location.pathname,
    origin: root?.publicUrl,
    alternates: input.noAlternates
      ? false
      : {
          fr: alternateHref(matches, "fr", args.location),
          en: alternateHref(matches, "en", args.location),
        },
  });
}
