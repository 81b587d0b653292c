import { useTranslation } from "react-i18next";
import { data, useRevalidator } from "react-router";
import { ClaimsReview } from "../../features/results/components/ClaimsReview.tsx";
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
    const actor = { id, role, emailStatus };
    const target = await context.services.resultsImport.importTarget(actor, parsed.data);
    // Claims on the edition's results whose name is not the member's wait for its organisers here.
    const claims = await context.services.resultClaims.forEvent(actor, parsed.data);
    return { ...target, claims };
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
  const { t } = useTranslation("results");
  const revalidator = useRevalidator();
  return (
    <>
      <ResultsImport locale={locale} event={loaderData.event} courses={loaderData.courses}>
        <section className="mt-8" aria-labelledby="claims-review-heading" id="demandes">
          <h2 id="claims-review-heading" className="font-bold text-ink-900 text-xl">
            {t("review.title")}
          </h2>
          <p className="mt-1 mb-4 text-ink-700 text-sm">{t("review.lead")}</p>
          <ClaimsReview claims={loaderData.claims} locale={locale} onDecided={() => revalidator.revalidate()} />
        </section>
      </ResultsImport>
      <LazyToastHost />
    </>
  );
}
