import type { AnchorHTMLAttributes, Ref } from "react";
import { Link } from "react-router";
import { inAppPath, isExternalHttpLink } from "./navigation.ts";

export type AppLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  href: string;
  /** Site origin for deciding same-origin absolute URLs; the browser's own when omitted. */
  origin?: string;
  /** React Router's replace-instead-of-push for in-app links. */
  replace?: boolean;
  ref?: Ref<HTMLAnchorElement>;
};

/** Adds noopener and noreferrer to whatever rel the caller gave, without duplicates. */
function safeRel(rel: string | undefined): string {
  const tokens = new Set((rel ?? "").split(/\s+/).filter(Boolean));
  tokens.add("noopener");
  tokens.add("noreferrer");
  return [...tokens].join(" ");
}

/**
 * A link that routes in-app through React Router's `<Link>` when it can, and falls back to a
 * plain `<a>` otherwise (other origins, mailto:, tel:, new tabs, downloads, server routes).
 * Anchors to other sites or new tabs get rel="noopener noreferrer".
 */
export function AppLink({ href, origin, replace, target, rel, download, ref, ...rest }: AppLinkProps) {
  const path = inAppPath(href, { origin, target, download });
  if (path !== null) {
    return <Link ref={ref} to={path} replace={replace} target={target} rel={rel} {...rest} />;
  }
  const needsSafeRel = target === "_blank" || isExternalHttpLink(href, origin);
  return (
    <a ref={ref} href={href} target={target} download={download} rel={needsSafeRel ? safeRel(rel) : rel} {...rest} />
  );
}
