import sanitizeHtml from "sanitize-html";

/** Tags kept in event and course descriptions; scripts, styles, handlers and images are dropped. */
export const DESCRIPTION_HTML: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "ul", "ol", "li", "h3", "h4", "blockquote", "a"],
  allowedAttributes: { a: ["href", "title", "rel", "target"] },
  allowedSchemes: ["https", "http", "mailto"],
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "nofollow noopener", target: "_blank" }) },
};

/** Written descriptions are sanitised on the way in. */
export function sanitizeDescription(html: string | null | undefined): string | null {
  if (!html) return null;
  const clean = sanitizeHtml(html, DESCRIPTION_HTML).trim();
  return clean || null;
}

/**
 * A description ready for the page: rich text from the editor sanitised again (imports may not
 * have been), plain text from older listings split into escaped paragraphs.
 */
export function descriptionHtml(text: string | null | undefined): string | null {
  if (!text?.trim()) return null;
  if (/<[a-z][\s\S]*>/i.test(text)) return sanitizeDescription(text);
  const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}
