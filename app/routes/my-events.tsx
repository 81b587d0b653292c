import { useTranslation } from "react-i18next";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { MyEventsList } from "../../features/editor/components/MyEventsList.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/my-events";

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  const { id, role, emailStatus } = context.user;
  return { events: await context.services.editor.listMine({ id, role, emailStatus }) };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "editor:myEvents.title", description: "editor:myEvents.description", noIndex: true });

export default function MyEventsPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("editor");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AccountLayout locale={locale} title={t("myEvents.title")}>
      <MyEventsList events={loaderData.events} locale={locale} />
    </AccountLayout>
  );
}
