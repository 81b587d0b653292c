import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { PosterCreator } from "../../features/posters/components/PosterCreator.tsx";
import { MAP_STYLE_IDS, MAP_STYLES } from "../../features/posters/poster.contract.ts";
import { styleAvailable } from "../../features/posters/render/render.ts";
import { isApiError } from "../../shared/api-error.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { idParam } from "../../shared/input.ts";
import { LazyToastHost } from "../../shared/ui/lazy-toasts.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/poster-creator";

/**
 * The poster creator: /poster/nouveau?course=ID (or ?track=ID) starts a design, open to visitors
 * for the preview (saving and exporting need a login); ?activity=ID starts from the member's own
 * activity (signed in only); /user/poster/:id edits a saved poster.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname);
  const userId = context.user?.id ?? null;
  const admin = context.user?.role === "admin";
  const service = context.services.posters;
  const styles = MAP_STYLE_IDS.map((id) => ({
    id,
    needs: MAP_STYLES[id].needs,
    available: styleAvailable(id, service.sources),
  }));
  try {
    if (params.id !== undefined) {
      if (!userId) throw loginRedirect(request);
      const id = idParam.safeParse(params.id);
      if (!id.success) throw data({ kind: "item" }, { status: 404 });
      const opened = await service.open("poster", id.data, userId, locale);
      if (!opened.mine) throw data({ kind: "item" }, { status: 404 });
      return { poster: opened.poster, styles, openData: service.openData, signedIn: true, admin };
    }
    // The first source named in the query, its id checked like the API's (an int4 row id).
    const type = (["course", "activity", "track"] as const).find((name) => url.searchParams.has(name));
    const id = type ? idParam.safeParse(url.searchParams.get(type)) : null;
    if (!type || !id?.success) throw data({ kind: "page" }, { status: 404 });
    // An activity is its owner's only: a visitor signs in first.
    if (type === "activity" && !userId) throw loginRedirect(request);
    const opened = await service.open(type, id.data, userId, locale);
    return { poster: opened.poster, styles, openData: service.openData, signedIn: userId != null, admin };
  } catch (error) {
    if (isApiError(error) && error.status === 404) throw data({ kind: "item" }, { status: 404 });
    throw error;
  }
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "posters:creator.title", description: "posters:creator.description", noIndex: true });

export default function PosterCreatorPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("posters");
  const locale = i18n.language === "en" ? "en" : "fr";
  const { poster, styles, openData, signedIn, admin } = loaderData;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:py-10">
      <h1 className="font-bold text-2xl text-ink-900 sm:text-3xl">
        {poster.id ? t("creator.editTitle") : t("creator.title")}
      </h1>
      <p className="mt-1 text-ink-700">{t("creator.description")}</p>
      <div className="mt-6">
        <PosterCreator
          initial={poster}
          styles={styles}
          openData={openData}
          locale={locale}
          signedIn={signedIn}
          admin={admin}
        />
      </div>
      <LazyToastHost />
    </div>
  );
}
