import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { AppLink, type AppLinkProps } from "./AppLink.tsx";

// The unit project runs in Node, so the component is rendered to markup inside a router.
function render(props: AppLinkProps): string {
  return renderToStaticMarkup(createElement(MemoryRouter, null, createElement(AppLink, props)));
}

describe("AppLink", () => {
  const origin = "https://dossard.fr";

  it("renders React Router's Link for in-app paths", () => {
    const html = render({ href: "/courses?sport=trail", origin, children: "Courses" });
    expect(html).toBe('<a href="/courses?sport=trail" data-discover="true">Courses</a>');
  });

  it("renders a same-origin absolute URL as an in-app path", () => {
    expect(render({ href: "https://dossard.fr/page/contact", origin, children: "x" })).toContain(
      'href="/page/contact"',
    );
  });

  it("renders a plain anchor with rel=noopener noreferrer for other sites", () => {
    const html = render({ href: "https://www.strava.com/", origin, rel: "nofollow", children: "Strava" });
    expect(html).toBe('<a href="https://www.strava.com/" rel="nofollow noopener noreferrer">Strava</a>');
  });

  it("renders plain anchors for mailto:, tel: and server routes, without rel", () => {
    expect(render({ href: "mailto:a@b.fr", origin, children: "m" })).toBe('<a href="mailto:a@b.fr">m</a>');
    expect(render({ href: "tel:+33102030405", origin, children: "t" })).toBe('<a href="tel:+33102030405">t</a>');
    expect(render({ href: "/logout", origin, children: "l" })).toBe('<a href="/logout">l</a>');
  });

  it("protects new tabs even on the same site", () => {
    expect(render({ href: "/courses", origin, target: "_blank", children: "c" })).toBe(
      '<a href="/courses" target="_blank" rel="noopener noreferrer">c</a>',
    );
  });
});
