import { data } from "react-router";
import { EventEditor } from "../../features/editor/components/EventEditor.tsx";
import { EventRequests } from "../../features/editor/components/EventRequests.tsx";
import type { TrackInfo } from "../../features/editor/components/form-model.ts";
import type { Visuals } from "../../features/editor/components/VisualsStep.tsx";
import type { EditableEvent } from "../../features/editor/editor.contract.ts";
import { isApiError } from "../../shared/api-error.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { eventImageUrl } from "../../shared/image-url.ts";
import { idParam } from "../../shared/input.ts";
import { LazyToastHost } from "../../shared/ui/lazy-toasts.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/event-editor";

const isNotFound = (error: unknown) => isApiError(error) && error.code === "ITEM_NOT_FOUND";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  const locale = localeFromPath(new URL(request.url).pathname);
  const { id: userId, role, emailStatus } = context.user;
  const countries = await context.services.geo.countries(locale);
  let event: EditableEvent | null = null;
  const visuals: Visuals = { coverImage: null, headerImage: null, gallery: [] };
  const tracks: Record<number, TrackInfo> = {};
  const raw = (params as { id?: string }).id;
  if (raw !== undefined) {
    const parsed = idParam.safeParse(raw);
    if (!parsed.success) throw data({ kind: "item" }, { status: 404 });
    const id = parsed.data;
    try {
      event = await context.services.editor.editable({ id: userId, role, emailStatus }, id);
    } catch (error) {
      if (isNotFound(error)) throw data({ kind: "item" }, { status: 404 });
      throw error;
    }
    visuals.coverImage = event.coverImage ? eventImageUrl(event.coverImage, { dir: id }) : null;
    visuals.headerImage = event.headerImage ? eventImageUrl(event.headerImage, { dir: id }) : null;
    if (event.access !== "member") {
      // Editors see the visuals and tracks of pending events too.
      const [current, summaries] = await Promise.all([
        context.services.images.visuals(id),
        context.services.tracks.summaries(event.courses.flatMap((c) => (c.trackId ? [c.trackId] : []))),
      ]);
      visuals.gallery = current.gallery.map((image) => ({
        id: image.id,
        url: image.url,
        previewUrl: image.previewUrl,
      }));
      for (const track of summaries) tracks[track.id] = track;
    }
  }
  const requests =
    event && event.access !== "member"
      ? await context.services.editor.pendingRequests({ id: userId, role, emailStatus }, event.id)
      : [];
  return { event, countries, userId, emailVerified: emailStatus === "verified", visuals, tracks, requests };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: args.data?.event ? "editor:editor.editMetaTitle" : "editor:editor.newTitle",
    description: "editor:editor.metaDescription",
    values: { name: args.data?.event?.name ?? "" },
    noIndex: true,
  });

export default function EventEditorPage({ loaderData }: Route.ComponentProps) {
  const locale = useLocale();
  return (
    <>
      <EventRequests requests={loaderData.requests} locale={locale} />
      <EventEditor
        key={loaderData.event?.id ?? "new"}
        locale={locale}
        userId={loaderData.userId}
        emailVerified={loaderData.emailVerified}
        event={loaderData.event}
        countries={loaderData.countries}
        visuals={loaderData.visuals}
        tracks={loaderData.tracks}
      />
      <LazyToastHost />
    </>
  );
}
