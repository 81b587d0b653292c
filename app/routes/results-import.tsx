import { data } from "react-router";
import { ResultsImport } from "../../features/results/import/components/ResultsImport.tsx";
import { isApiError } from "../../shared/api-error.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { idParam } from "../../shared/input.ts";
import { LazyToastHost } from "../../shared/ui/lazy-toasts.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/results-import";

const codeOf = (error: unknown) => (isApiError(error) ? error.code : undefined);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  const parsed = idParam.safeParse(params.id);
  if (!parsed.success) throw data({ kind: "item" }, { status: 404 });
  const { id, role, emailStatus } = context.user;
  try {
    return await context.services.resultsImport.importTarget({ id, role, emailStatus }, parsed.data);
  } catch (error) {
    if (codeOf(error) === "ITEM_NOT_FOUND") throw data({ kind: "item" }, { status: 404 });
    if (codeOf(error) === "FORBIDDEN") throw data({ kind: "forbidden" }, { status: 403 });
    throw error;
  }
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "results-import:meta.title",
    description: "results-import:meta.description",
    values: { event: args.data?.event.name ?? "" },
    noIndex: true,
  });

export default function ResultsImportPage({ loaderData }: Route.ComponentProps) {
  const locale = useLocale();
  return (
    <>
      <ResultsImport locale={locale} event={loaderData.event} courses={loaderData.courses} />
      <LazyToastHost />
    </>
  );
}
