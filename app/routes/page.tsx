import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/page";

const STATIC_PAGES = ["terms", "contact", "credits"] as const;
type StaticPage = (typeof STATIC_PAGES)[number];

export function loader({ params }: Route.LoaderArgs) {
  const slug = params.slug as StaticPage;
  if (!STATIC_PAGES.includes(slug)) throw data({ kind: "item" }, { status: 404 });
  return { slug };
}

export const meta: Route.MetaFunction = (args) =>
  args.data
    ? routeMeta(args, { title: `pages:${args.data.slug}.title`, description: `pages:${args.data.slug}.description` })
    : routeMeta(args, {
        title: "common:errors.itemNotFoundTitle",
        description: "common:errors.itemNotFound",
        noIndex: true,
        noAlternates: true,
      });

export default function StaticPageView({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  const body = t(`${loaderData.slug}.body`, { returnObjects: true }) as string[];
  return (
    <article className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="font-bold text-3xl">{t(`${loaderData.slug}.title`)}</h1>
      <div className="mt-6 space-y-4 text-ink-700 leading-relaxed">
        {body.map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}
      </div>
    </article>
  );
}
