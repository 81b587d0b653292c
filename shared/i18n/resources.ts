/** Every translation bundle, imported statically so the client and server share them. */
import enCommon from "../../locales/en/common.json";
import enEvents from "../../locales/en/events.json";
import enPages from "../../locales/en/pages.json";
import enSports from "../../locales/en/sports.json";
import enUi from "../../locales/en/ui.json";
import frCommon from "../../locales/fr/common.json";
import frEvents from "../../locales/fr/events.json";
import frPages from "../../locales/fr/pages.json";
import frSports from "../../locales/fr/sports.json";
import frUi from "../../locales/fr/ui.json";

export const resources = {
  fr: { common: frCommon, ui: frUi, events: frEvents, sports: frSports, pages: frPages },
  en: { common: enCommon, ui: enUi, events: enEvents, sports: enSports, pages: enPages },
} as const;

export const NAMESPACES = Object.keys(resources.fr) as (keyof typeof resources.fr)[];
export type Namespace = (typeof NAMESPACES)[number];
