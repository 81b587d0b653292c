import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { formatRaceTime } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import type { Finishers } from "../community.contract.ts";
import { MemberAvatar } from "./MemberAvatar.tsx";

/**
 * An edition's finishers for the event page: how many finished, the members with a public profile
 * (named, linked) and how many others (counted). Fetched by the browser after hydration (the event
 * page is one shared copy for everyone); the event page places it through EventFinishersIsland
 * (components/islands.tsx), in the `finishers` slot of EventPageSlots.
 */
export default function EventFinishers({ eventId, locale }: { eventId: number; locale: Locale }) {
  const { t } = useTranslation("community");
  const [data, setData] = useState<Finishers | null>(null);
  useEffect(() => {
    let live = true;
    apiFetch(`/api/community/finishers/${eventId}`)
      .then((response) => (response.ok ? (response.json() as Promise<Finishers>) : null))
      .then((answer) => {
        if (live) setData(answer);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [eventId]);
  if (!data || data.finishers === 0) return null;
  return (
    <section
      aria-labelledby="event-finishers"
      data-testid="event-finishers"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 id="event-finishers" className="font-bold text-ink-900 text-lg">
        {t("finishers.heading")}{" "}
        <span className="font-normal text-base text-ink-500">{t("finishers.count", { count: data.finishers })}</span>
      </h2>
      {data.members.length === 0 ? (
        <p className="mt-2 text-ink-700">{t("finishers.none")}</p>
      ) : (
        <>
          <h3 className="mt-3 font-medium text-ink-700 text-sm">{t("finishers.members")}</h3>
          <ul className="mt-2 flex flex-col gap-2">
            {data.members.map((member) => (
              <li key={`${member.slug}-${member.course}`}>
                <a
                  href={pagePath("member", locale, { slug: member.slug })}
                  className="flex items-center gap-3 rounded-lg p-1 text-ink-900 hover:bg-slate-50"
                >
                  <MemberAvatar member={member} size={32} />
                  <span className="min-w-0 flex-1 truncate font-medium">{member.displayName}</span>
                  <span className="shrink-0 text-ink-500 text-sm tabular-nums">
                    {member.course}
                    {member.timeMs ? ` · ${formatRaceTime(Math.round(member.timeMs / 1000))}` : ""}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
      {data.privateMembers > 0 && (
        <p className="mt-2 text-ink-500 text-sm">{t("finishers.others", { count: data.privateMembers })}</p>
      )}
    </section>
  );
}
