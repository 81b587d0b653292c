import type { Locale } from "../constants.ts";
import { pageBundleScript } from "./page-bundle.ts";
import { resources } from "./resources.ts";

const scripts = new Map<Locale, string>();

/** The inline script giving the browser the page's language (see page-bundle.ts), built once per language. */
export function pageBundleScriptFor(locale: Locale): string {
  let script = scripts.get(locale);
  if (script === undefined) {
    script = pageBundleScript({ locale, resources: resources[locale] });
    scripts.set(locale, script);
  }
  return script;
}
