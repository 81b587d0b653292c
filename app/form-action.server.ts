import { data, redirect, type UNSAFE_DataWithResponseInit } from "react-router";
import type { z } from "zod";
import { localeFromPath } from "../shared/i18n/index.ts";
import { apiErrorsOf, type FormResult, parseForm, reply } from "../shared/ui/form/submission.ts";
import type { AppContext, PageApiAnswer } from "./context.ts";

/** What a page's action answers a form posted without JavaScript; `result` goes to useApiForm. */
export type FormActionData<Extra extends object = object> = { result: FormResult } & Partial<Extra>;

/**
 * The no-JavaScript path of a form of the form layer: the posted fields read with the same
 * contract as in the browser, then sent to the same JSON API route (in process, as the visitor),
 * whose errors come back beside their fields. `onSuccess` answers a success (a redirect, or what
 * the page shows); by default the page shows the form again, without errors.
 */
export async function apiFormAction<Input, Output, Extra extends object = object>(
  { request, context }: { request: Request; context: AppContext },
  options: {
    schema: z.ZodType<Output, Input>;
    url: string;
    onSuccess?: (answer: PageApiAnswer, value: Output) => Response | Extra;
  },
): Promise<Response | UNSAFE_DataWithResponseInit<FormActionData<Extra>>> {
  const locale = localeFromPath(new URL(request.url).pathname);
  const submission = parseForm(await request.formData(), options.schema, locale);
  if (submission.status !== "success")
    return data({ result: reply(submission) } as FormActionData<Extra>, { status: 400 });
  const { value } = submission;
  const answer = await context.api({ url: options.url, body: value, locale });
  if (answer.status >= 400) {
    const { code: _code, ...errors } = apiErrorsOf(answer.body, locale);
    return data({ result: reply(submission, errors) } as FormActionData<Extra>, { status: answer.status });
  }
  const done = options.onSuccess?.(answer, value);
  if (done instanceof Response) return done;
  return data({ result: reply(submission), ...done } as FormActionData<Extra>);
}

/** A redirect that keeps the cookies the API set (a new session). */
export function redirectWithCookies(location: string, answer: PageApiAnswer): Response {
  return redirect(location, { headers: answer.cookies.map((cookie): [string, string] => ["set-cookie", cookie]) });
}
