/** Every translation bundle, imported statically so the client and server share them. */
import enCommon from "../../locales/en/common.json";
import enUi from "../../locales/en/ui.json";
import frCommon from "../../locales/fr/common.json";
import frUi from "../../locales/fr/ui.json";

export const resources = {
  fr: { common: frCommon, ui: frUi },
  en: { common: enCommon, ui: enUi },
} as const;

export const NAMESPACES = Object.keys(resources.fr) as (keyof typeof resources.fr)[];
export type Namespace = (typeof NAMESPACES)[number];
