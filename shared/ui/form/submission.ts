/**
 * The form layer's rules, the same in the browser and in route actions: a posted form read with
 * its zod contract (Conform's coercion: "on" → true, "12" → 12, optional empties → undefined),
 * the contract's catalogue codes turned into messages, and an API error body laid onto the
 * fields it names. See README.md beside this file.
 */
import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { configureCoercion } from "@conform-to/zod/v4/future";
import { z } from "zod";
import { apiErrorBodySchema, apiErrorMessage, type ErrorCode } from "../../api-error.ts";
import type { Locale } from "../../constants.ts";
import { issueText } from "../../validation-messages.ts";

/** What a form shows after a submission: Conform's result (field errors, typed values). */
export type FormResult = SubmissionResult<string[]>;
export type FormSubmission<Input, Output> = Submission<Input, string[], Output>;

// A required text stays "" (as the JSON API receives it) so its own rule answers, e.g. "invalid
// address" rather than "missing"; optional and defaulted fields still take "" as not given.
const { coerceFormValue } = configureCoercion({
  customize: (type) => (type._zod.def.type === "string" ? (value: unknown) => value : null),
});

/** The body of a form that is only a button (send again, confirm): nothing to check. */
export const emptyBody = z.object({});

/** Conform's field name of an API field path: "emails.1" → "emails[1]". */
export function formFieldName(path: string): string {
  return path
    .split(".")
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join("");
}

/** Texts of a form's own checks (browser only), by the message its schema gives them. */
export type FormMessages = Readonly<Record<string, string>>;

/**
 * Messages of one field's failed checks, in the words the API would give
 * (shared/validation-messages.ts), or the form's own text for a check only the browser makes.
 */
export function issueMessages(issues: readonly z.core.$ZodIssue[], locale: Locale, own: FormMessages = {}): string[] {
  const first = issues[0];
  if (!first) return [];
  if (Object.hasOwn(own, first.message)) return [own[first.message] as string];
  return [issueText(first, locale).message];
}

/** Reads a posted form with its contract. */
export function parseForm<Input, Output>(
  formData: FormData | URLSearchParams,
  schema: z.ZodType<Output, Input>,
  locale: Locale,
  own?: FormMessages,
): FormSubmission<Input, Output> {
  return parseWithZod(formData, {
    schema: coerceFormValue(schema),
    disableAutoCoercion: true,
    formatError: (issues: z.core.$ZodIssue[]) => issueMessages(issues, locale, own),
  }) as unknown as FormSubmission<Input, Output>;
}

/** Secrets are never sent back into a page. */
const isSecret = (name: string) => /password/i.test(name);

/** A result without the secrets the visitor typed (passwords are never echoed in the page). */
export function reply(submission: Submission<unknown, string[], unknown>, errors?: FieldAndFormErrors): FormResult {
  const hideFields = Object.keys(submission.payload).filter(isSecret);
  return submission.reply({ hideFields, ...(errors ?? {}) });
}

export type FieldAndFormErrors = { formErrors?: string[]; fieldErrors?: Record<string, string[]> };

/**
 * An API error body as field and form errors: every `fields` entry beside its field, `field`
 * beside its own, a message about no field above the form. Not an error body: the generic message.
 */
export function apiErrorsOf(body: unknown, locale: Locale): FieldAndFormErrors & { code: ErrorCode } {
  const parsed = apiErrorBodySchema.safeParse(body);
  if (!parsed.success) return { code: "GENERIC", formErrors: [apiErrorMessage("GENERIC", locale)] };
  const { code, message, field, fields } = parsed.data.error;
  const fieldErrors: Record<string, string[]> = {};
  for (const f of fields ?? []) fieldErrors[formFieldName(f.field)] ??= [f.message];
  if (field) fieldErrors[formFieldName(field)] ??= [message];
  return { code, fieldErrors, ...(field ? {} : { formErrors: [message] }) };
}
