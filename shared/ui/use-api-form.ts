import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { apiFetch } from "../api-client.ts";
import { apiErrorBodySchema, apiErrorMessage, type ErrorCode, isErrorCode } from "../api-error.ts";
import type { Locale } from "../constants.ts";

export type FieldErrors = Record<string, string>;

/** Field messages from zod issues whose messages are error codes (see the account contract). */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[], locale: Locale): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.join(".");
    if (errors[field]) continue;
    const code: ErrorCode = isErrorCode(issue.message) ? issue.message : "BAD_REQUEST";
    errors[field] = apiErrorMessage(code, locale, field);
  }
  return errors;
}

export type ApiFormOptions<Result> = {
  url: string | (() => string);
  method?: "POST" | "GET";
  /** Checked in the browser first, with the same rules and messages as the server. */
  schema?: z.ZodType;
  onSuccess?: (result: Result) => void | Promise<void>;
  /** A form-level error the page wants to handle itself (e.g. email verification required). */
  onError?: (code: ErrorCode) => boolean | undefined;
};

/**
 * Submits a form to the API: browser-side checks, the request with the access header, then the
 * server's errors beside their fields (or above the form), and a pending flag for the button.
 */
export function useApiForm<Result = unknown>(options: ApiFormOptions<Result>) {
  const { i18n, t } = useTranslation();
  const locale = (i18n.language === "en" ? "en" : "fr") as Locale;
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(values: unknown): Promise<Result | undefined> {
    setFormError(null);
    if (options.schema) {
      const parsed = options.schema.safeParse(values);
      if (!parsed.success) {
        setErrors(issuesToErrors(parsed.error.issues, locale));
        return undefined;
      }
    }
    setPending(true);
    try {
      const url = typeof options.url === "function" ? options.url() : options.url;
      const response = await apiFetch(url, {
        method: options.method ?? "POST",
        ...(options.method === "GET" ? {} : { body: JSON.stringify(values ?? {}) }),
      });
      const body = await response.json().catch(() => null);
      if (!response.ok) {
        const parsed = apiErrorBodySchema.safeParse(body);
        if (!parsed.success) {
          setFormError(t("errors.generic"));
          return undefined;
        }
        const { code, message, field, fields } = parsed.data.error;
        if (options.onError?.(code)) return undefined;
        const next: FieldErrors = {};
        for (const f of fields ?? []) next[f.field] = f.message;
        if (field) next[field] ??= message;
        setErrors(next);
        if (!field) setFormError(message);
        return undefined;
      }
      setErrors({});
      await options.onSuccess?.(body as Result);
      return body as Result;
    } catch {
      setFormError(t("errors.generic"));
      return undefined;
    } finally {
      setPending(false);
    }
  }

  return { errors, setErrors, formError, setFormError, pending, submit };
}
