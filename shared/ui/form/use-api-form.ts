import { getFormProps, useForm } from "@conform-to/react";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { apiFetch } from "../../api-client.ts";
import type { ErrorCode } from "../../api-error.ts";
import type { Locale } from "../../constants.ts";
import { inputConstraints } from "./constraints.ts";
import {
  apiErrorsOf,
  type FormMessages,
  type FormResult,
  type FormSubmission,
  parseForm,
  reply,
} from "./submission.ts";

export type ApiFormOptions<Input extends Record<string, unknown>, Output, Result> = {
  /** The request body's contract: the browser checks it first, with the server's messages. */
  schema: z.ZodType<Output, Input>;
  /** The JSON API address the form is posted to (as JSON, with the access header). */
  url: string;
  /** The route action's answer when the form was posted without JavaScript. */
  lastResult?: FormResult | null;
  /** Field values to start from (an edit form). */
  defaultValue?: { [Key in keyof Input]?: unknown };
  id?: string;
  /** Texts of checks only this form makes (not the API's), by their schema message. */
  messages?: FormMessages;
  /** Empties the fields after a success (a password change). */
  resetOnSuccess?: boolean;
  onSuccess?: (result: Result, value: Output) => void | Promise<void>;
  /** An error the page handles itself (e.g. email verification required): return true. */
  onError?: (code: ErrorCode) => boolean | undefined;
};

/**
 * One form of the site, declared from its zod contract (Conform underneath): the browser checks
 * the fields, posts the typed values to the JSON API, and shows the API's errors beside the fields
 * they name (or above the form); the first invalid field takes the focus. Without JavaScript the
 * same <form method="post"> reaches the route's action (app/form-action.server.ts), whose answer
 * comes back as `lastResult`.
 */
export function useApiForm<Input extends Record<string, unknown>, Output, Result = unknown>(
  options: ApiFormOptions<Input, Output, Result>,
) {
  const { i18n } = useTranslation();
  const locale: Locale = i18n.language === "en" ? "en" : "fr";
  const [result, setResult] = useState<FormResult | undefined>(undefined);
  const [pending, setPending] = useState(false);
  const latest = useRef(options);
  latest.current = options;

  async function send(submission: FormSubmission<Input, Output>) {
    if (submission.status !== "success") return;
    const { url, onError, onSuccess, resetOnSuccess } = latest.current;
    setPending(true);
    try {
      const response = await apiFetch(url, {
        method: "POST",
        body: JSON.stringify(submission.value),
      });
      const body = await response.json().catch(() => null);
      if (!response.ok) {
        const { code, ...errors } = apiErrorsOf(body, locale);
        setResult(reply(submission, onError?.(code) ? undefined : errors));
        return;
      }
      setResult(resetOnSuccess ? submission.reply({ resetForm: true }) : reply(submission));
      await onSuccess?.(body as Result, submission.value);
    } catch {
      setResult(reply(submission, apiErrorsOf(null, locale)));
    } finally {
      setPending(false);
    }
  }

  // Each input carries the contract's limits (maxLength, required…), as the API checks them.
  const constraint = useMemo(() => inputConstraints(options.schema), [options.schema]);
  const [form, fields] = useForm<Input, Output>({
    id: options.id,
    constraint,
    lastResult: result ?? options.lastResult,
    defaultValue: options.defaultValue as never,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseForm(formData, latest.current.schema, locale, latest.current.messages),
    onSubmit(event, { submission }) {
      event.preventDefault();
      if (submission) void send(submission as FormSubmission<Input, Output>);
    },
  });

  return {
    form,
    fields,
    pending,
    /** The error about no single field, shown above or below the form. */
    formError: form.errors?.[0] ?? null,
    /** Spread on the <form>: a real POST to the page (its action) until JavaScript takes over. */
    props: { ...getFormProps(form), method: "post" as const },
    /** Any field's error by Conform name ("emails[1]"), for fields built by hand. */
    errorOf: (name: string): string | undefined => form.allErrors[name]?.[0],
    /** Submits again (after the page fixed what blocked it, e.g. a verified address). */
    resubmit: () => (document.getElementById(form.id) as HTMLFormElement | null)?.requestSubmit(),
  };
}
