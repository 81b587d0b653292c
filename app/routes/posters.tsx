import { useTranslation } from "react-i18next";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { MyPosters } from "../../features/posters/components/MyPosters.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/posters";

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  return context.services.posters.list("mine", context.user.id);
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "posters:creator.mine", description: "posters:creator.description", noIndex: true });

export default function PostersPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("posters");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AccountLayout locale={locale} title={t("creator.mine")}>
      <MyPosters initial={loaderData.items} locale={locale} />
    </AccountLayout>
  );
}
