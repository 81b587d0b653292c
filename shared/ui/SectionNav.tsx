import { ChevronDown } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link, useLocation } from "react-router";
import type { Locale } from "../constants.ts";
import { type PageId, pagePath } from "../i18n/pages.ts";
import { cx } from "./cx.ts";

export type SectionNavItem = {
  href: string;
  label: string;
  /** Also the current section on the pages under its path (`/admin/…` for an admin entry). */
  prefix?: boolean;
  /** What waits in this section (pending events, reports…): a count and its spoken form. */
  badge?: { count: number; label: string };
};
export type SectionNavGroup = { label: string; items: readonly SectionNavItem[] };

type Section = { page: PageId; label: string; prefix?: boolean };
/** A labelled group of a section menu (its label and its pages' labels: i18n keys of the area's namespace). */
export type SectionGroup = { group: string; sections: readonly Section[] };

/** The groups of a section menu, translated, with each page's path in the locale. */
export function sectionGroups(
  groups: readonly SectionGroup[],
  locale: Locale,
  t: (key: string) => string,
): SectionNavGroup[] {
  return groups.map(({ group, sections }) => ({
    label: t(group),
    items: sections.map(({ page, label, prefix }) => ({ href: pagePath(page, locale), label: t(label), prefix })),
  }));
}

/** Whether `item` is the page at `pathname` (or, with `prefix`, one of the pages under it). */
export function isCurrentSection(pathname: string, item: SectionNavItem): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === item.href) return true;
  return item.prefix === true && path.startsWith(`${item.href.replace(/\/+$/, "")}/`);
}

/**
 * The sections of an area (the member's account, the admin area) in labelled groups: a side menu
 * on wide screens; on phones a disclosure (`<details>`, so it opens without JavaScript) whose
 * summary names the current section. Every section is a plain link; the current one carries
 * aria-current="page" and is marked by a bar and bold type, not by colour alone.
 */
export function SectionNav({
  label,
  groups,
  className,
}: {
  /** The navigation's name, also shown above the current section on phones. */
  label: string;
  groups: readonly SectionNavGroup[];
  className?: string;
}) {
  const { pathname } = useLocation();
  const current = groups.flatMap((group) => group.items).find((item) => isCurrentSection(pathname, item));
  return (
    <nav aria-label={label} className={className} data-testid="section-nav">
      <details className="group rounded-xl border border-slate-200 bg-white shadow-sm lg:hidden">
        <summary className="flex min-h-12 cursor-pointer list-none items-center gap-3 rounded-xl px-4 py-2 [&::-webkit-details-marker]:hidden">
          <span className="min-w-0 flex-1">
            <span className={cx("block", current ? "text-ink-500 text-xs" : "font-semibold text-ink-900")}>
              {label}
            </span>
            {current ? <span className="block font-semibold text-ink-900">{current.label}</span> : null}
          </span>
          <ChevronDown
            className="size-5 shrink-0 text-ink-700 transition-transform group-open:rotate-180"
            aria-hidden="true"
          />
        </summary>
        <div className="border-slate-200 border-t px-2 pt-2 pb-3">
          <SectionGroups groups={groups} pathname={pathname} />
        </div>
      </details>
      <div className="hidden lg:block">
        <SectionGroups groups={groups} pathname={pathname} />
      </div>
    </nav>
  );
}

function SectionGroups({ groups, pathname }: { groups: readonly SectionNavGroup[]; pathname: string }): ReactNode {
  const id = useId();
  return groups.map((group, index) => (
    <div key={group.label} className="mt-3 first:mt-0">
      <p id={`${id}-${index}`} className="px-3 pb-1 font-semibold text-ink-500 text-xs uppercase tracking-wide">
        {group.label}
      </p>
      <ul aria-labelledby={`${id}-${index}`}>
        {group.items.map((item) => {
          const on = isCurrentSection(pathname, item);
          return (
            <li key={item.href}>
              <Link
                to={item.href}
                data-label={item.label}
                aria-label={item.badge && item.badge.count > 0 ? `${item.label} (${item.badge.label})` : undefined}
                aria-current={on ? "page" : undefined}
                className={cx(
                  "flex min-h-11 items-center rounded-md border-l-4 px-3 py-2 text-sm lg:min-h-9 lg:py-1.5",
                  on
                    ? "border-brand-700 bg-brand-50 font-bold text-ink-900"
                    : "border-transparent font-medium text-ink-700 hover:bg-slate-100 hover:text-ink-900",
                )}
              >
                <span className="min-w-0 flex-1">{item.label}</span>
                {item.badge && item.badge.count > 0 ? (
                  <span
                    aria-hidden="true"
                    className="ml-2 inline-flex min-w-6 items-center justify-center rounded-full bg-amber-100 px-1.5 font-bold text-amber-900 text-xs tabular-nums"
                    title={item.badge.label}
                  >
                    {item.badge.count}
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  ));
}

/**
 * The frame of a page with a section menu: its title, the menu (between the title and the page on
 * phones, a column on the left from 1024 px) and the page.
 */
export function SectionFrame({
  title,
  lead,
  nav,
  wide = false,
  children,
}: {
  title: string;
  /** A line under the title. */
  lead?: ReactNode;
  nav: ReactNode;
  /** Grids, calendars and tables take the whole column; text pages keep a readable measure. */
  wide?: boolean;
  children: ReactNode;
}) {
  const column = cx("min-w-0 lg:col-start-2", !wide && "max-w-3xl");
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:py-10 lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:grid-rows-[auto_1fr] lg:gap-x-10">
      <div className={column}>
        <h1 className="font-bold text-2xl text-ink-900 sm:text-3xl">{title}</h1>
        {lead ? <p className="mt-1 text-ink-700">{lead}</p> : null}
      </div>
      <div className="mt-4 lg:sticky lg:top-6 lg:col-start-1 lg:row-span-2 lg:row-start-1 lg:mt-0 lg:self-start">
        {nav}
      </div>
      <div className={cx(column, "mt-6")}>{children}</div>
    </div>
  );
}
