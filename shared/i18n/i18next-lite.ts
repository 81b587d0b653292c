/**
 * i18next as the page builds see it (vite.config.ts swaps the package for this module in the
 * browser and the server-rendering builds): the part of i18next's API and behaviour that Dossard
 * uses, in about 1 KB instead of i18next's 15 KB (gzip), and cheaper per call. The API server
 * (errors, mail) uses the real i18next, so both must give the same text: i18next-lite.test.ts compares them on every
 * message of both languages, and react-i18next-lite.isolated.test.ts on rendered components.
 *
 * Supported, as i18next does it with createI18n's options (index.ts): "ns:key.path" keys and the
 * `ns` option, nested JSON catalogues, plurals (`count`, `key_zero` / `key_one` / `key_other`…
 * with Intl.PluralRules), `{{variable}}` and `{{- variable}}` without escaping (a value passed as
 * undefined gives "", a missing one leaves `{{variable}}`), `returnObjects`, `defaultValue`,
 * missing keys giving the key, the fallback language when its catalogue is loaded, and French
 * contractions before names (french-elision.ts, the server's post-processor).
 * Not supported (a warning in development): context, ordinal plurals, formatting
 * (`{{value, number}}`), nesting (`$t(…)`), post-processors, keyPrefix, loading and events.
 */
import type { InitOptions } from "i18next";
import { elideFrench } from "./french-elision.ts";

type Catalogue = Record<string, unknown>;
type Options = Record<string, unknown> & {
  count?: unknown;
  ns?: string | readonly string[];
  returnObjects?: boolean;
  defaultValue?: unknown;
};
type TFunction = (key: string | readonly string[], options?: Options | string) => unknown;

/** What Dossard reads of an i18next instance. */
export interface ClientI18n {
  language: string;
  languages: string[];
  options: InitOptions;
  isInitialized: boolean;
  t: TFunction;
  getFixedT(lng: string | null, ns?: string | readonly string[]): TFunction;
  init(options: InitOptions): ClientI18n;
  use(plugin: unknown): ClientI18n;
}

const UNSUPPORTED = [
  "context",
  "ordinal",
  "keyPrefix",
  "replace",
  "postProcess",
  "lngs",
  "joinArrays",
  "returnDetails",
];
const VARIABLE = /\{\{-?(.+?)\}\}/g;
const pluralRules = new Map<string, Intl.PluralRules>();
const pluralSuffix = (code: string, count: number) => {
  let rules = pluralRules.get(code);
  if (!rules) {
    rules = new Intl.PluralRules(code);
    pluralRules.set(code, rules);
  }
  return `_${rules.select(count)}`;
};
const own = (object: object, key: string) => Object.hasOwn(object, key);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !(value instanceof RegExp);

/** A value at a dotted path, own properties only. */
function at(object: unknown, path: string[]): unknown {
  let current = object;
  for (const part of path) {
    if (!isObject(current) || !own(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

/** i18next's test for a key meant as an object path rather than a sentence containing ":". */
function looksLikePath(key: string): boolean {
  const sentence = /[ ,?!;]/;
  if (!sentence.test(key)) return true;
  const dot = key.indexOf(".");
  return dot > 0 && !sentence.test(key.slice(0, dot));
}

function interpolate(text: string, values: Options): string {
  return text.replace(VARIABLE, (match, name: string) => {
    const variable = name.trim();
    const value = own(values, variable) ? values[variable] : at(values, variable.split("."));
    if (value === undefined) return own(values, variable) ? "" : match;
    return value == null ? "" : String(value);
  });
}

export function createInstance(): ClientI18n {
  let resources: Record<string, Catalogue> = {};
  let fallback: string | undefined;
  const instance: ClientI18n = {
    language: "",
    languages: [],
    options: {},
    isInitialized: false,
    init(options) {
      instance.options = options;
      resources = (options.resources ?? {}) as Record<string, Catalogue>;
      instance.language = options.lng ?? "";
      fallback = typeof options.fallbackLng === "string" ? options.fallbackLng : undefined;
      instance.languages = languages(instance.language);
      instance.isInitialized = true;
      return instance;
    },
    use: () => instance,
    t: (key, options) => translate(instance.language, key, options),
    getFixedT: (lng, ns) => (key, options) => {
      const o: Options = typeof options === "string" ? { defaultValue: options } : { ...options };
      o.ns ??= ns;
      return translate(lng ?? instance.language, key, o);
    },
  };

  /** A language then the fallback language, as i18next resolves keys. */
  function languages(lng: string): string[] {
    return [...new Set([lng, ...(fallback ? [fallback] : [])])];
  }

  function translate(lng: string, keys: string | readonly string[], options: Options | string = {}): unknown {
    const o: Options = typeof options === "string" ? { defaultValue: options } : options;
    if (import.meta.env.DEV) {
      const unsupported = UNSUPPORTED.filter((name) => o[name] !== undefined);
      if (unsupported.length) console.warn(`i18n in the browser: ${unsupported.join(", ")} not supported`);
    }
    const plural = o.count !== undefined && typeof o.count !== "string";
    const codes = languages(lng);
    let found: unknown;
    let key = "";
    let exactKey = "";
    let namespaces: string[] = [];
    for (const candidate of Array.isArray(keys) ? keys : [keys as string]) {
      key = String(candidate);
      const ns = o.ns ?? (instance.options.defaultNS as string | undefined) ?? "translation";
      namespaces = typeof ns === "string" ? [ns] : [...ns];
      if (key.includes(":") && looksLikePath(key)) {
        const parts = key.split(":");
        namespaces = [parts.shift() as string];
        key = parts.join(".");
      }
      for (const ns of namespaces) {
        for (const code of codes) {
          const lookups = [key];
          if (plural) {
            lookups.push(key + pluralSuffix(code, o.count as number));
            if (o.count === 0) lookups.push(`${key}_zero`);
          }
          for (let lookup = lookups.pop(); lookup !== undefined; lookup = lookups.pop()) {
            found = at(resources[code]?.[ns], lookup.split("."));
            exactKey = lookup;
            if (found != null) break;
          }
          if (found != null) break;
        }
        if (found != null) break;
      }
      if (found != null) break;
    }

    if (isObject(found)) {
      if (!o.returnObjects) return `key '${key} (${instance.language})' returned an object instead of string.`;
      const copy: Record<string, unknown> = Array.isArray(found) ? ([] as unknown as Record<string, unknown>) : {};
      const base = Array.isArray(found) ? exactKey : key;
      for (const member of Object.keys(found)) {
        const deepKey = `${base}.${member}`;
        const value = translate(lng, deepKey, { ...o, ns: namespaces });
        copy[member] = value === deepKey ? found[member] : value;
      }
      return copy;
    }
    if (found == null) {
      const suffix = plural ? pluralSuffix(lng, o.count as number) : "";
      found = (o.count === 0 && plural && o.defaultValue_zero) || o[`defaultValue${suffix}`] || o.defaultValue;
      if (found == null) found = key;
    }
    if (typeof found !== "string") return found;
    const text = interpolate(found, o);
    return lng === "fr" ? elideFrench(text) : text;
  }

  return instance;
}

export default { createInstance };
