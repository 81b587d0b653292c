/**
 * A failed field check in words a person reads: each rule its own sentence (too long → « 80
 * caractères au plus », missing → « Indiquez votre prénom »), never the field's internal name.
 * Isomorphic: the API's error handler and the browser's forms give the same words for the same
 * rule. A check whose message is a catalogue code ("EMAIL_INVALID") keeps that code's message;
 * FIELD_REQUIRED takes the field's own "required" words when it has some.
 */
import enCommon from "../locales/en/common.json";
import frCommon from "../locales/fr/common.json";
import { apiErrorMessage, type ErrorCode, fieldLeaf, fieldWords, isErrorCode } from "./api-error.ts";
import type { Locale } from "./constants.ts";
import { formatNumber } from "./format.ts";

/** What a zod issue carries (zod's own, or rebuilt from Fastify's validation entries). */
export type IssueLike = {
  code: string;
  message?: string;
  path?: readonly PropertyKey[];
  origin?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
  expected?: string;
  format?: string;
};

type Rule = Exclude<keyof typeof frCommon.validation, "fields">;

const WORDS = { fr: frCommon.validation, en: enCommon.validation } as const;

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? "");
}

function rule(locale: Locale, name: Rule, values: Record<string, string> = {}): string {
  return fill((WORDS[locale] ?? WORDS.fr)[name], values);
}

/** The error code and the words of one failed check. */
export function issueText(issue: IssueLike, locale: Locale): { code: ErrorCode; message: string } {
  const leaf = fieldLeaf(issue.path);
  const own = fieldWords(locale, leaf);
  const message = issue.message ?? "";
  if (isErrorCode(message) && message !== "BAD_REQUEST" && message !== "INVALID_FIELD") {
    if (message === "FIELD_REQUIRED" && own.required) return { code: message, message: own.required };
    return { code: message, message: apiErrorMessage(message, locale) };
  }
  const number = (value: number | bigint | undefined) => formatNumber(Number(value), locale);
  const words = ((): string => {
    switch (issue.code) {
      case "too_big":
        if (issue.origin === "string") return rule(locale, "tooLong", { max: number(issue.maximum) });
        if (issue.origin === "array" || issue.origin === "set")
          return rule(locale, "tooMany", { max: number(issue.maximum) });
        return rule(locale, "tooBig", { max: number(issue.maximum) });
      case "too_small":
        if (issue.origin === "string") {
          return Number(issue.minimum) <= 1
            ? (own.required ?? rule(locale, "required"))
            : rule(locale, "tooShort", { min: number(issue.minimum) });
        }
        if (issue.origin === "array" || issue.origin === "set") {
          return Number(issue.minimum) <= 1
            ? (own.required ?? rule(locale, "required"))
            : rule(locale, "tooFew", { min: number(issue.minimum) });
        }
        return rule(locale, "tooSmall", { min: number(issue.minimum) });
      case "invalid_type":
        if (issue.expected === "int") return rule(locale, "integer");
        if (issue.expected === "number" || issue.expected === "bigint") return rule(locale, "number");
        return own.required ?? rule(locale, "required");
      case "invalid_value":
      case "invalid_union":
        return own.choice ?? own.invalid ?? rule(locale, "choice");
      case "invalid_format":
        if (issue.format === "email") return apiErrorMessage("EMAIL_INVALID", locale);
        if (issue.format === "url") return apiErrorMessage("URL_INVALID", locale);
        return own.format ?? own.invalid ?? rule(locale, "format");
      case "custom":
        // text()'s own check: a NUL or a lone surrogate.
        if (message === "BAD_REQUEST") return rule(locale, "characters");
        return own.invalid ?? rule(locale, "invalid");
      default:
        return own.invalid ?? rule(locale, "invalid");
    }
  })();
  return { code: "BAD_REQUEST", message: words };
}
