import { useTranslation } from "react-i18next";
import { EventCardView } from "../../features/events/components/EventCard.tsx";
import { routeMeta } from "../meta.ts";
import { useLocale } from "../use-locale.ts";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  return { events: await context.services.events.upcoming(24) };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "events:home.title", description: "events:home.description" });

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("events");
  const locale = useLocale();
  const { events } = loaderData;
  return (
    <>
      <section className="bg-gradient-to-br from-ink-900 to-ink-700 text-white">
        <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
          <h1 className="max-w-2xl font-extrabold text-3xl leading-tight sm:text-4xl">{t("home.heading")}</h1>
          <p className="mt-3 max-w-2xl text-base text-slate-200 sm:text-lg">{t("home.lead")}</p>
        </div>
      </section>
      <section className="mx-auto max-w-6xl px-4 py-8" aria-labelledby="upcoming-heading">
        <div className="mb-4 flex items-baseline justify-between gap-4">
          <h2 id="upcoming-heading" className="font-bold text-xl sm:text-2xl">
            {t("home.upcoming")}
          </h2>
        </div>
        {events.length === 0 ? (
          <p className="text-ink-700">{t("home.empty")}</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="event-list">
            {events.map((event) => (
              <li key={event.id}>
                <EventCardView event={event} locale={locale} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
