import { Eye, Flag, Heart, Users } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { formatNumber } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import type { ParticipantsResponse } from "../engagement.contract.ts";

const CARD = "rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";

/** The event's numbers: favourites, members going, page views, and finishers once results are in. */
export function EventStats({
  data,
  locale,
  finishers = 0,
}: {
  data: ParticipantsResponse;
  locale: Locale;
  /** The edition's finishers when it has results (features/results). */
  finishers?: number;
}) {
  const { t } = useTranslation("engagement");
  const items = [
    { icon: Heart, label: t("stats.favorites"), value: data.favorites },
    { icon: Users, label: t("stats.members"), value: data.members },
    { icon: Eye, label: t("stats.views"), value: data.views },
    ...(finishers > 0 ? [{ icon: Flag, label: t("results:block.finishersLabel"), value: finishers }] : []),
  ];
  return (
    <section aria-labelledby="stats-heading" className={CARD} data-testid="event-stats">
      <h2 id="stats-heading" className="font-bold text-ink-900 text-lg">
        {t("stats.heading")}
      </h2>
      <dl className={`mt-3 grid gap-2 text-center ${items.length > 3 ? "grid-cols-2" : "grid-cols-3"}`}>
        {items.map(({ icon: Icon, label, value }) => (
          <div key={label} className="rounded-xl bg-slate-50 px-2 py-3">
            <dt className="flex items-center justify-center gap-1 text-ink-700 text-xs">
              <Icon className="size-3.5" aria-hidden="true" />
              {label}
            </dt>
            <dd className="mt-1 font-extrabold text-ink-900 text-xl">{formatNumber(value, locale)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Who goes to each course: counts for all, faces and names for members with a public profile. */
export function EventParticipants({
  data,
  courses,
  locale,
}: {
  data: ParticipantsResponse;
  courses: readonly { id: number; name: string }[];
  locale: Locale;
}) {
  const { t } = useTranslation("engagement");
  const byId = new Map(data.courses.map((c) => [c.courseId, c]));
  const anyone = data.courses.some((c) => c.going + c.done > 0);
  return (
    <section aria-labelledby="participants-heading" className={CARD} data-testid="event-participants">
      <h2 id="participants-heading" className="font-bold text-ink-900 text-lg">
        {t("participants.heading")}
      </h2>
      {!anyone ? (
        <p className="mt-2 text-ink-700 text-sm">{t("participants.nobody")}</p>
      ) : (
        <ul className="mt-3 space-y-4">
          {courses.map((course) => {
            const figures = byId.get(course.id);
            if (!figures || figures.going + figures.done === 0) return null;
            const hidden = figures.going + figures.done - figures.members.length;
            return (
              <li key={course.id}>
                <p className="font-semibold text-ink-900 text-sm">{course.name}</p>
                <p className="text-ink-700 text-xs">
                  {[
                    figures.going ? t("participants.going", { count: figures.going }) : null,
                    figures.done ? t("participants.done", { count: figures.done }) : null,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
                {figures.members.length > 0 && (
                  <ul className="mt-2 flex flex-wrap items-center gap-1.5">
                    {figures.members.map((member) => (
                      <li key={member.slug}>
                        <Link
                          to={pagePath("member", locale, { slug: member.slug })}
                          title={member.displayName}
                          className="block rounded-full focus-visible:outline-2 focus-visible:outline-brand-700 focus-visible:outline-offset-2"
                        >
                          {member.photoUrl ? (
                            <img
                              src={member.photoUrl}
                              alt={t("participants.profile", { name: member.displayName })}
                              width={36}
                              height={36}
                              loading="lazy"
                              className="size-9 rounded-full object-cover ring-2 ring-white"
                            />
                          ) : (
                            <span className="flex size-9 items-center justify-center rounded-full bg-brand-700 font-bold text-white text-sm ring-2 ring-white">
                              <span aria-hidden="true">{member.displayName.slice(0, 1).toUpperCase()}</span>
                              <span className="sr-only">{t("participants.profile", { name: member.displayName })}</span>
                            </span>
                          )}
                        </Link>
                      </li>
                    ))}
                    {hidden > 0 && (
                      <li className="flex size-9 items-center justify-center rounded-full bg-slate-100 font-semibold text-ink-700 text-xs">
                        {t("participants.more", { count: hidden })}
                      </li>
                    )}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <p className="mt-3 text-ink-500 text-xs">{t("participants.private")}</p>
    </section>
  );
}
