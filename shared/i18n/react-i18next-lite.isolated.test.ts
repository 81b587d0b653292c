import { createElement as h, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { ErrorPage } from "../../app/components/ErrorPage.tsx";
import { SiteFooter } from "../../app/components/SiteFooter.tsx";
import { LOCALES, type Locale } from "../constants.ts";
import { createInstance } from "./i18next-lite.ts";
import { createI18n, i18nOptions, localePath } from "./index.ts";
import * as standIn from "./react-i18next-lite.tsx";
import { resources } from "./resources.ts";

/**
 * The same components rendered with react-i18next over i18next (the server) and with the browser's
 * stand-ins (react-i18next-lite.tsx over i18next-lite.ts) must give the same HTML.
 */
const browser = vi.hoisted(() => ({ on: false }));
vi.mock("react-i18next", async () => {
  const real = await vi.importActual<typeof import("react-i18next")>("react-i18next");
  const client = await import("./react-i18next-lite.tsx");
  return {
    ...real,
    // One implementation per render, picked before the hook is called.
    useTranslation: (...args: Parameters<typeof real.useTranslation>) => {
      const useImplementation = (
        browser.on ? client.useTranslation : real.useTranslation
      ) as typeof real.useTranslation;
      return useImplementation(...args);
    },
  };
});
const { I18nextProvider, useTranslation } = await import("react-i18next");

function Probe() {
  const common = useTranslation();
  const [t, i18n] = useTranslation("event");
  const landing = useTranslation(["landing", "common"]);
  return h(
    "p",
    { lang: i18n.language },
    [
      common.t("siteName"),
      common.t("footer.rights", { year: 2026 }),
      t("meta.title", { name: "Trail", city: "Annecy", date: "14/06/26" }),
      t("common:nav.races"),
      landing.t("results.count", { count: 3, formatted: "3" }),
      landing.i18n.t("common:tagline"),
      String(common.ready && landing.ready),
    ].join(" | "),
  );
}

function render(locale: Locale, inBrowser: boolean, children: ReactNode): string {
  browser.on = inBrowser;
  const i18n = inBrowser
    ? createInstance().init(i18nOptions(locale, { [locale]: resources[locale] }))
    : createI18n(locale);
  const Provider = (inBrowser ? standIn.I18nextProvider : I18nextProvider) as typeof standIn.I18nextProvider;
  const page = h(MemoryRouter, { initialEntries: [localePath(locale, "/nowhere")] }, children);
  return renderToString(h(Provider, { i18n: i18n as never }, page));
}

describe("the browser's react-i18next stand-in", () => {
  for (const locale of LOCALES) {
    it(`renders like react-i18next over i18next, in ${locale}`, () => {
      const pieces = [
        () => h(Probe),
        () => h(SiteFooter, { locale }),
        () => h(ErrorPage, { kind: "page" }),
        () => h(ErrorPage, { kind: "item" }),
        () => h(ErrorPage, { kind: "generic" }),
      ];
      for (const piece of pieces) {
        const server = render(locale, false, piece());
        expect(server).not.toContain("returned an object");
        expect(render(locale, true, piece())).toBe(server);
      }
    });
  }

  it("uses the instance registered with initReactI18next when there is no provider", () => {
    const i18n = createInstance().init(i18nOptions("en", { en: resources.en }));
    standIn.initReactI18next.init(i18n);
    browser.on = true;
    expect(renderToString(h(Probe))).toContain(`lang="en"`);
  });
});
