/**
 * Page metadata with the spec's fallbacks (section 2 "Page header metadata", section 9 "Meta
 * description is cut to 140 characters in head tags"), as React Router v7 meta descriptors.
 */
import type { MetaDescriptor } from "react-router";
import { type Locale, META_DESCRIPTION_MAX } from "./constants.ts";
import { switchLocalePath } from "./i18n/index.ts";
import { DEFAULT_SHARE_IMAGE } from "./image-url.ts";
import { publicUrl } from "./public-url.ts";
import { shareImage } from "./share-image.ts";

export { DEFAULT_SHARE_IMAGE } from "./image-url.ts";

export const SITE_NAME = "Dossard";
export const OG_LOCALES = { fr: "fr_FR", en: "en_GB" } as const satisfies Record<Locale, string>;
/** The locale search engines get when none of the alternates matches the reader. */
export const X_DEFAULT_LOCALE: Locale = "fr";

type Text = string | null | undefined;

export interface PageMetaInput {
  locale: Locale;
  /** Pathname of the page as served (English pages under /en); its query is ignored. */
  path: string;
  title?: Text;
  pageTitle?: Text;
  headerTitle?: Text;
  description?: Text;
  pageDesc?: Text;
  headerText?: Text;
  image?: Text;
  pageImage?: Text;
  headerImage?: Text;
  /** Canonical path or URL when it differs from `path` (for example a page reached by an old slug). */
  canonical?: Text;
  /**
   * The page's path in each locale, for hreflang. By default the same path with or without the
   * /en prefix; pass the localized paths when the words differ, or false for pages without
   * alternates (errors).
   */
  alternates?: Partial<Record<Locale, string>> | false;
  /** Open Graph type; "website" by default. */
  type?: "website" | "article" | "profile";
  siteName?: string;
  /** Public site origin; the configured one when omitted. */
  origin?: string;
  /** Ask search engines not to index the page (errors, private pages). */
  noIndex?: boolean;
}

function firstText(...values: Text[]): string | undefined {
  for (const value of values) {
    const text = value?.trim();
    if (text) return text;
  }
  return undefined;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

/** Plain text of a description that may carry HTML (event descriptions do): tags out, spaces collapsed. */
export function plainText(value: string): string {
  return value
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Cuts a description to at most `max` characters (140 by default, ellipsis included), at a word
 * boundary, ending with "…". Characters are counted as code points so emoji are never split.
 */
export function truncateDescription(text: string, max: number = META_DESCRIPTION_MAX): string {
  const clean = plainText(text);
  const chars = Array.from(clean);
  if (chars.length <= max) return clean;
  let cut = chars.slice(0, max - 1).join("");
  const cutsAWord = chars[max - 1] !== " ";
  const lastSpace = cut.lastIndexOf(" ");
  // Back up to the last whole word, unless that would throw away more than half the text.
  if (cutsAWord && lastSpace >= (max - 1) / 2) cut = cut.slice(0, lastSpace);
  cut = cut.replace(/[\s,;:.!?…\-–—(«"']+$/u, "");
  return `${cut}…`;
}

/** title → pageTitle → headerTitle, then the site name. */
export function resolveTitle(input: Pick<PageMetaInput, "title" | "pageTitle" | "headerTitle" | "siteName">): string {
  return firstText(input.title, input.pageTitle, input.headerTitle) ?? input.siteName ?? SITE_NAME;
}

/** description → pageDesc → headerText → headerTitle, as plain text and uncut; undefined when none. */
export function resolveDescription(
  input: Pick<PageMetaInput, "description" | "pageDesc" | "headerText" | "headerTitle">,
): string | undefined {
  const text = firstText(input.description, input.pageDesc, input.headerText, input.headerTitle);
  return text === undefined ? undefined : plainText(text) || undefined;
}

/** image → pageImage → headerImage → the default share image (a site path or URL, not yet absolute). */
export function resolveImage(input: Pick<PageMetaInput, "image" | "pageImage" | "headerImage">): string {
  return firstText(input.image, input.pageImage, input.headerImage) ?? DEFAULT_SHARE_IMAGE;
}

function pathOnly(path: string): string {
  return path.split(/[?#]/)[0] || "/";
}

/**
 * The page's `<title>`, description, canonical link, hreflang alternates (fr, en, x-default),
 * Open Graph and Twitter card tags. `<title>` reads "Page | Dossard" (the site name alone when
 * the page has no title); og:title carries the page title alone, og:site_name the brand. The
 * image is the share version of the page's picture (shared/share-image.ts): a JPEG or PNG whose
 * type and size the tags announce.
 */
export function buildMeta(input: PageMetaInput): MetaDescriptor[] {
  const siteName = input.siteName ?? SITE_NAME;
  const absolute = (pathOrUrl: string) => (input.origin ? publicUrl(pathOrUrl, input.origin) : publicUrl(pathOrUrl));
  const title = resolveTitle({ ...input, siteName });
  const documentTitle = title === siteName ? siteName : `${title} | ${siteName}`;
  const fullDescription = resolveDescription(input);
  const description = fullDescription === undefined ? undefined : truncateDescription(fullDescription);
  const share = shareImage(resolveImage(input), new URL(absolute("/")).origin);
  const image = absolute(share.url);
  const url = absolute(firstText(input.canonical) ?? pathOnly(input.path));
  const other: Locale = input.locale === "fr" ? "en" : "fr";

  const meta: MetaDescriptor[] = [{ title: documentTitle }];
  if (description !== undefined) meta.push({ name: "description", content: description });
  if (input.noIndex) meta.push({ name: "robots", content: "noindex" });
  meta.push({ tagName: "link", rel: "canonical", href: url });

  if (input.alternates !== false) {
    const bare = pathOnly(input.path);
    const paths: Record<Locale, string> = {
      fr: input.alternates?.fr ?? switchLocalePath(bare, "fr"),
      en: input.alternates?.en ?? switchLocalePath(bare, "en"),
    };
    meta.push(
      { tagName: "link", rel: "alternate", hrefLang: "fr", href: absolute(paths.fr) },
      { tagName: "link", rel: "alternate", hrefLang: "en", href: absolute(paths.en) },
      { tagName: "link", rel: "alternate", hrefLang: "x-default", href: absolute(paths[X_DEFAULT_LOCALE]) },
    );
  }

  meta.push(
    { property: "og:title", content: title },
    ...(description === undefined ? [] : [{ property: "og:description", content: description }]),
    { property: "og:image", content: image },
    { property: "og:image:type", content: share.type },
    { property: "og:image:width", content: String(share.width) },
    { property: "og:image:height", content: String(share.height) },
    { property: "og:url", content: url },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:site_name", content: siteName },
    { property: "og:locale", content: OG_LOCALES[input.locale] },
    { property: "og:locale:alternate", content: OG_LOCALES[other] },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    ...(description === undefined ? [] : [{ name: "twitter:description", content: description }]),
    { name: "twitter:image", content: image },
  );
  return meta;
}
