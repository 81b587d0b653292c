/**
 * react-i18next as the page builds see it (vite.config.ts swaps the package for this module in
 * the browser and server-rendering builds), for the i18next stand-in of i18next-lite.ts: `useTranslation(ns)` and
 * `<I18nextProvider>`, with react-i18next's results (`{ t, i18n, ready }`, also an array), in a few
 * hundred bytes instead of 3 KB. Translations never load later in the browser (the page's language
 * comes with the page), so there is nothing to wait for or to subscribe to.
 */
import { createContext, type ReactNode, useContext, useMemo } from "react";
import type { ClientI18n } from "./i18next-lite.ts";

const I18nContext = createContext<{ i18n: ClientI18n; defaultNS?: string | readonly string[] } | null>(null);
let registered: ClientI18n | undefined;

export const initReactI18next = {
  type: "3rdParty",
  init(instance: ClientI18n) {
    registered = instance;
  },
};

export function I18nextProvider({
  i18n,
  defaultNS,
  children,
}: {
  i18n: ClientI18n;
  defaultNS?: string | readonly string[];
  children?: ReactNode;
}) {
  const value = useMemo(() => ({ i18n, defaultNS }), [i18n, defaultNS]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useTranslation(ns?: string | readonly string[], props: { i18n?: ClientI18n } = {}) {
  const context = useContext(I18nContext);
  const i18n = props.i18n ?? context?.i18n ?? registered;
  if (!i18n) throw new Error("useTranslation: no i18n instance (I18nextProvider or initReactI18next)");
  const wanted = ns ?? context?.defaultNS ?? (i18n.options.defaultNS as string | readonly string[] | undefined);
  // react-i18next's default nsMode: the first namespace is the one keys are looked up in.
  const namespace = typeof wanted === "string" ? wanted : (wanted?.[0] ?? "translation");
  return useMemo(() => {
    const t = i18n.getFixedT(null, namespace);
    return Object.assign([t, i18n, true] as const, { t, i18n, ready: true });
  }, [i18n, namespace]);
}
