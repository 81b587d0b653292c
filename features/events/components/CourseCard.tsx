import type { TFunction } from "i18next";
import { Backpack, Clock, Download, Hourglass, type LucideIcon, Mountain, Ruler, Users } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { formatPageDate } from "../../../shared/dates.ts";
import { formatDistance, formatDuration, formatElevation, formatMoney, formatNumber } from "../../../shared/format.ts";
import { RaceMapIsland } from "../../maps/components/islands.tsx";
import type { RaceMapMarker } from "../../maps/components/RaceMap.tsx";
import type { CourseDetail, CoursePrice, EventPageTrack } from "../event-detail.contract.ts";
import { formatClock, formatShortDay, hasStartTime, zonedIsoDate } from "./event-format.ts";
import { ElevationChartIsland } from "./islands.tsx";

type CourseCardProps = {
  course: CourseDetail;
  track?: EventPageTrack;
  /** The event's first and last days and its time zone, to tell when a start is on another day. */
  event: { startDate: string; endDate: string; timeZone: string };
  locale: Locale;
  /** The member's action on this course (add to my planning), shown under its name. */
  action?: ReactNode;
};

function Stat({ icon: Icon, label, children }: { icon: LucideIcon; label: string; children: ReactNode }) {
  return (
    <div className="bg-white px-4 py-3">
      <dt className="flex items-center gap-1.5 text-ink-500 text-xs">
        <Icon className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
        {label}
      </dt>
      <dd className="mt-0.5 font-bold text-base text-ink-900 tabular-nums sm:text-lg">{children}</dd>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap gap-x-2 border-slate-100 border-b py-1.5 last:border-b-0">
      <dt className="text-ink-500">{label}</dt>
      <dd className="font-medium text-ink-900">{children}</dd>
    </div>
  );
}

function priceDates(p: CoursePrice, locale: Locale, t: TFunction): string {
  const start = p.startsOn ? formatPageDate(p.startsOn, locale) : null;
  const end = p.endsOn ? formatPageDate(p.endsOn, locale) : null;
  if (start && end) return t("courses.priceBetween", { start, end });
  if (end) return t("courses.priceUntil", { date: end });
  if (start) return t("courses.priceFrom", { date: start });
  return t("courses.priceAlways");
}

/** A loop's start and finish are one spot: then one marker says both. */
function endMarkers(line: [number, number][], t: TFunction): RaceMapMarker[] {
  const [a, b] = [line[0], line.at(-1)!];
  const near = Math.abs(a[0] - b[0]) < 0.0006 && Math.abs(a[1] - b[1]) < 0.0004;
  if (near)
    return [
      {
        id: "start",
        lng: a[0],
        lat: a[1],
        kind: "start",
        label: `${t("courses.startMarker")} / ${t("courses.finishMarker")}`,
      },
    ];
  return [
    { id: "start", lng: a[0], lat: a[1], kind: "start", label: t("courses.startMarker") },
    { id: "finish", lng: b[0], lat: b[1], kind: "finish", label: t("courses.finishMarker") },
  ];
}

export function CourseCard({ course, track, event, locale, action }: CourseCardProps) {
  const { t } = useTranslation("event");
  const headingId = `course-${course.id}`;
  const startDay = course.startAt ? zonedIsoDate(course.startAt, event.timeZone) : null;
  const showDay = startDay !== null && (event.endDate !== event.startDate || startDay !== event.startDate);
  // A course saved without a start time shows its day at most, never "00:00".
  const timed = hasStartTime(course.startAt, event.timeZone);
  const day = showDay ? formatShortDay(startDay as string, locale) : null;
  const start =
    timed && course.startAt
      ? day
        ? t("courses.startAt", { day, time: formatClock(course.startAt, event.timeZone) })
        : formatClock(course.startAt, event.timeZone)
      : (day ?? (course.startAt ? t("courses.startUnknown") : null));
  const summary = course.track;
  return (
    <article
      aria-labelledby={headingId}
      className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
      data-testid="course-card"
    >
      <header className="flex flex-wrap items-start justify-between gap-2 px-4 pt-4 pb-3 sm:px-5">
        <h3 id={headingId} className="font-bold text-ink-900 text-lg leading-snug sm:text-xl">
          {course.name}
        </h3>
        {course.type !== "race" && (
          <span className="rounded-full bg-slate-100 px-2.5 py-0.5 font-semibold text-ink-700 text-xs">
            {t(`courses.type.${course.type}`)}
          </span>
        )}
        {action && <div className="w-full">{action}</div>}
      </header>
      {/* Named by the card's heading (the article's label): a dl has no role to take a name. */}
      <dl className="grid grid-cols-2 gap-px border-slate-100 border-y bg-slate-100 sm:grid-cols-4">
        {course.distance !== null && (
          <Stat icon={Ruler} label={t("courses.distance")}>
            {formatDistance(course.distance, locale)}
          </Stat>
        )}
        {course.distance === null && course.duration !== null && (
          <Stat icon={Hourglass} label={t("courses.duration")}>
            {formatDuration(course.duration, locale)}
          </Stat>
        )}
        <Stat icon={Mountain} label={t("courses.elevation")}>
          {course.elevationGain === null
            ? t("courses.elevationUnknown")
            : course.elevationGain
              ? formatElevation(course.elevationGain, locale)
              : "–"}
        </Stat>
        <Stat icon={Clock} label={t("courses.start")}>
          {start ?? "–"}
        </Stat>
        <Stat icon={Users} label={t("courses.bibQuota")}>
          {course.bibQuota ? formatNumber(course.bibQuota, locale) : "–"}
        </Stat>
      </dl>

      <div className="space-y-5 px-4 py-4 sm:px-5">
        <dl className="text-sm">
          {course.startPlace && <Fact label={t("courses.startPlace")}>{course.startPlace}</Fact>}
          {course.finishPlace && course.finishPlace !== course.startPlace && (
            <Fact label={t("courses.finishPlace")}>{course.finishPlace}</Fact>
          )}
          {course.refuellingPoints !== null && course.refuellingPoints > 0 && (
            <Fact label={t("courses.refuelling")}>{formatNumber(course.refuellingPoints, locale)}</Fact>
          )}
          {course.minAge !== null && (
            <Fact label={t("courses.minAge")}>{t("courses.minAgeValue", { count: course.minAge })}</Fact>
          )}
          {course.itraPoints !== null && (
            <Fact label={t("courses.itra")}>{t("courses.itraValue", { count: course.itraPoints })}</Fact>
          )}
          {course.utmbIndex && <Fact label={t("courses.utmb")}>{course.utmbIndex}</Fact>}
          {course.challenge && <Fact label={t("courses.challenge")}>{course.challenge}</Fact>}
        </dl>

        {course.description && <p className="text-ink-700 text-sm leading-relaxed">{course.description}</p>}

        {course.mandatoryEquipment && (
          <div className="rounded-xl bg-amber-50 px-4 py-3 text-sm ring-1 ring-amber-200 ring-inset">
            <h4 className="flex items-center gap-1.5 font-semibold text-amber-950">
              <Backpack className="h-4 w-4" aria-hidden="true" />
              {t("courses.equipment")}
            </h4>
            <p className="mt-1 text-amber-950">{course.mandatoryEquipment}</p>
          </div>
        )}

        <div>
          <h4 className="font-semibold text-ink-900 text-sm">{t("courses.prices")}</h4>
          {course.prices.length === 0 ? (
            <p className="mt-1 text-ink-700 text-sm">{t("courses.noPrices")}</p>
          ) : (
            <table className="mt-2 w-full border-collapse text-sm">
              <thead className="sr-only">
                <tr>
                  <th scope="col">{t("courses.priceLabel")}</th>
                  <th scope="col">{t("courses.priceDates")}</th>
                  <th scope="col">{t("courses.priceAmount")}</th>
                </tr>
              </thead>
              <tbody>
                {course.prices.map((p) => (
                  <tr
                    key={p.id}
                    className={p.current ? "bg-brand-50 ring-1 ring-brand-500 ring-inset" : "border-slate-100 border-b"}
                    aria-current={p.current ? "true" : undefined}
                    data-current={p.current || undefined}
                  >
                    <th scope="row" className="py-2 pr-2 pl-2 text-left align-top font-medium text-ink-900">
                      {p.label}
                      {p.current && (
                        <span className="ml-1.5 inline-block rounded-full bg-brand-700 px-2 py-0.5 font-semibold text-[11px] text-white">
                          {t("courses.currentPrice")}
                        </span>
                      )}
                    </th>
                    <td className="px-2 py-2 align-top text-ink-700">{priceDates(p, locale, t)}</td>
                    <td className="py-2 pr-2 pl-2 text-right align-top font-bold text-ink-900 tabular-nums">
                      {p.price === 0 ? t("courses.free") : formatMoney(p.price, locale)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>

        {summary && track && track.line.length > 1 && (
          <div className="space-y-4 border-slate-100 border-t pt-4">
            <h4 className="font-semibold text-ink-900 text-sm">{t("courses.track")}</h4>
            <RaceMapIsland
              label={t("courses.mapLabel", { name: course.name })}
              line={track.line}
              breaks={track.breaks}
              markers={endMarkers(track.line, t)}
              className="aspect-[16/10] rounded-xl ring-1 ring-slate-200 sm:aspect-[2/1]"
            />
            <ElevationChartIsland
              profile={track.profile}
              breaks={track.profileBreaks}
              name={course.name}
              distance={summary.distance}
              elevationGain={summary.elevationGain}
              elevationLoss={summary.elevationLoss}
              minElevation={summary.minElevation}
              maxElevation={summary.maxElevation}
              locale={locale}
              headingLevel="h5"
            />
            <a
              href={summary.gpx}
              download
              className="inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-semibold text-ink-900 text-sm hover:bg-slate-50"
              data-testid="gpx-link"
            >
              <Download className="h-4 w-4" aria-hidden="true" />
              <span>
                {t("courses.gpx")}
                <span className="block font-normal text-ink-500 text-xs">{t("courses.gpxHint")}</span>
              </span>
            </a>
          </div>
        )}
      </div>
    </article>
  );
}
