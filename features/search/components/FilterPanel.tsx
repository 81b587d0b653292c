import { Search, SlidersHorizontal, X } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ELEVATION_BANDS, EVENT_SCOPES, SPORTS } from "../../../shared/constants.ts";
import { formatNumber } from "../../../shared/format.ts";
import { FIELD_LABEL_CLASS } from "../../../shared/ui/FieldLabel.tsx";
import { useHydrated } from "../../../shared/ui/use-hydrated.ts";
import type { SearchResult } from "../search.contract.ts";
import {
  countSearchFilters,
  DEFAULT_RADIUS,
  DEFAULT_VIEW,
  DISTANCE_KEYS,
  hasPlace,
  parseSearchParams,
  RADIUS_CHOICES,
  VIEW_PARAM,
} from "../search-url.ts";
import { ChipGroup } from "./ChipGroup.tsx";
import { DatesField } from "./DatesField.tsx";
import { FieldSelect } from "./FieldSelect.tsx";

/** Minimum members' ratings the filter offers (the API takes any value from 1 to 5). */
const MIN_RATING_CHOICES = [4.5, 4, 3.5, 3] as const;

import type { DepartmentRef, RegionRef } from "./geo-refs.ts";
import { PlaceField } from "./PlaceField.tsx";
import type { SearchState } from "./use-search-state.ts";

export const SEARCH_FORM_ID = "search-form";
const TOGGLE_ID = "filters-toggle";
const TEXT_DEBOUNCE_MS = 350;

type Props = {
  state: SearchState;
  regions: RegionRef[];
  departments: DepartmentRef[];
  facets?: SearchResult["facets"];
  /** The resolved place of the current search, for its label. */
  placeName?: string;
  total: number;
  /** The results' heading: on phones the focus goes there once the sheet's search is sent. */
  resultsHeadingId?: string;
};

const TEXT_INPUT =
  "h-10 w-full rounded-md border border-gray-400 bg-white px-3 text-base text-gray-900 placeholder:text-gray-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600";

/**
 * Every filter of the search as a plain GET form whose field names are the query names, so it
 * works without JavaScript; with it, each change updates the URL at once (text after a pause).
 * A sidebar on wide screens, a bottom sheet opened by the "Filters" button on phones (a CSS-only
 * toggle, so the sheet opens without JavaScript too).
 */
export function FilterPanel({ state, regions, departments, facets, placeName, total, resultsHeadingId }: Props) {
  const { t, i18n } = useTranslation("landing");
  const { t: ts } = useTranslation("sports");
  const hydrated = useHydrated();
  const { query, apply, go, view, pathname } = state;
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const sheetTitleRef = useRef<HTMLHeadingElement>(null);
  const locale = i18n.language;

  // Text: local while typing, sent after a pause; follows the URL when it changes elsewhere.
  const [text, setText] = useState(query.q ?? "");
  const sent = useRef(query.q ?? "");
  useEffect(() => {
    if ((query.q ?? "") !== sent.current) {
      sent.current = query.q ?? "";
      setText(query.q ?? "");
    }
  }, [query.q]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to typing only
  useEffect(() => {
    const value = text.trim();
    if (value === sent.current) return;
    const timer = setTimeout(() => {
      const replace = Boolean(sent.current && value);
      sent.current = value;
      apply({ q: value || undefined }, { replace });
    }, TEXT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  // The sheet is modal on phones: Escape closes it and gives the focus back to its button, and
  // Tab cycles through its controls instead of wandering into the page behind it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: close only sets state and moves the focus
  useEffect(() => {
    if (!open) return;
    sheetTitleRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
      else if (event.key === "Tab") trapFocus(event, document.getElementById("search-filters"));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  const close = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const params = new URLSearchParams();
    for (const [key, value] of data) if (typeof value === "string") params.append(key, value);
    const next = parseSearchParams(params).query;
    // The sort lives outside the form; keep it unless the place it needs is gone.
    if (query.sort && (query.sort !== "distance" || hasPlace(next))) next.sort = query.sort;
    sent.current = next.q ?? "";
    go(next);
    // The sheet and its button go: the focus goes to the results it asked for, not to the page's body.
    if (open) document.getElementById(resultsHeadingId ?? "")?.focus();
    setOpen(false);
  };

  const filterCount = countSearchFilters(query);
  const sportOptions = SPORTS.map((sport) => ({ value: sport.key, label: ts(sport.key) }));
  const regionOptions = regions.map((r) => ({ value: r.code, label: r.name }));
  const departmentOptions = departments.map((d) => ({
    value: d.code,
    label: `${d.name} (${d.code})`,
    parent: d.regionCode,
  }));
  const radiusOptions = RADIUS_CHOICES.map((km) => ({ value: String(km), label: t("filters.radiusKm", { km }) }));
  const placeSet = hasPlace(query);
  const countText = t("results.count", { count: total, formatted: formatNumber(total, locale) });

  const toggleContent = (
    <>
      <SlidersHorizontal className="size-4" aria-hidden="true" />
      {t("filters.open")}
      {filterCount > 0 ? (
        <>
          <span aria-hidden="true" className="rounded-full bg-brand-700 px-1.5 py-0.5 text-white text-xs">
            {filterCount}
          </span>
          <span className="sr-only">{t("filters.activeCount", { count: filterCount })}</span>
        </>
      ) : null}
    </>
  );

  return (
    <div>
      {/* Phones: the button opening the sheet (a label of the CSS toggle before hydration). */}
      <div className="mb-3 flex items-center gap-2 lg:hidden">
        {hydrated ? (
          <button
            ref={toggleRef}
            type="button"
            aria-expanded={open}
            aria-controls="search-filters"
            onClick={() => setOpen(!open)}
            className="inline-flex h-10 items-center gap-2 rounded-full border border-slate-300 bg-white px-4 font-semibold text-ink-900 text-sm shadow-sm hover:bg-slate-50"
          >
            {toggleContent}
          </button>
        ) : (
          <label
            htmlFor={TOGGLE_ID}
            className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-full border border-slate-300 bg-white px-4 font-semibold text-ink-900 text-sm shadow-sm"
          >
            {toggleContent}
          </label>
        )}
        {filterCount > 0 ? (
          <Link
            to={pathname}
            className="rounded-md px-2 py-2 font-medium text-brand-700 text-sm underline-offset-2 hover:underline"
          >
            {t("filters.reset")}
          </Link>
        ) : null}
      </div>

      <input
        id={TOGGLE_ID}
        type="checkbox"
        className="peer sr-only"
        checked={open}
        onChange={(event) => setOpen(event.target.checked)}
        tabIndex={hydrated ? -1 : undefined}
        aria-hidden={hydrated || undefined}
      />
      {/* biome-ignore lint/a11y/noLabelWithoutControl: the backdrop closes the sheet by toggling its check box */}
      <label
        htmlFor={TOGGLE_ID}
        aria-hidden="true"
        className="fixed inset-0 z-40 hidden bg-ink-900/50 peer-checked:block lg:peer-checked:hidden"
      />
      <section
        id="search-filters"
        aria-labelledby="search-filters-title"
        className="fixed inset-x-0 bottom-0 z-50 hidden max-h-[88dvh] flex-col overflow-hidden rounded-t-2xl bg-white shadow-2xl peer-checked:flex lg:static lg:z-auto lg:flex lg:max-h-none lg:overflow-visible lg:rounded-xl lg:border lg:border-slate-200 lg:shadow-sm"
      >
        <div className="flex items-center justify-between border-slate-200 border-b px-4 py-3">
          <h2
            id="search-filters-title"
            ref={sheetTitleRef}
            tabIndex={-1}
            className="flex items-center gap-2 font-bold text-base text-ink-900 focus:outline-none"
          >
            <SlidersHorizontal className="size-4 text-brand-600" aria-hidden="true" />
            {t("filters.title")}
          </h2>
          {hydrated ? (
            <button
              type="button"
              onClick={close}
              aria-label={t("filters.close")}
              className="rounded-md p-2 text-ink-700 hover:bg-slate-100 lg:hidden"
            >
              <X className="size-5" aria-hidden="true" />
            </button>
          ) : (
            <label htmlFor={TOGGLE_ID} className="cursor-pointer rounded-md p-2 text-ink-700 lg:hidden">
              <X className="size-5" aria-hidden="true" />
              <span className="sr-only">{t("filters.close")}</span>
            </label>
          )}
        </div>

        <form
          id={SEARCH_FORM_ID}
          method="get"
          action={pathname}
          aria-label={t("filters.title")}
          onSubmit={onSubmit}
          className="flex min-h-0 flex-1 flex-col"
        >
          <div className="min-h-0 flex-1 space-y-5 overflow-y-auto px-4 py-4 lg:overflow-visible">
            <div>
              <label htmlFor="search-q" className={FIELD_LABEL_CLASS}>
                {t("filters.text")}
              </label>
              <div className="relative">
                <Search className="-translate-y-1/2 absolute top-1/2 left-3 size-4 text-gray-600" aria-hidden="true" />
                <input
                  id="search-q"
                  type="search"
                  name="q"
                  value={text}
                  maxLength={100}
                  onChange={(event) => setText(event.target.value)}
                  placeholder={t("filters.textPlaceholder")}
                  className={`${TEXT_INPUT} pl-9`}
                />
              </div>
            </div>

            <FieldSelect
              id="search-sport"
              name="sport"
              multiple
              label={t("filters.sport")}
              placeholder={t("filters.anySport")}
              options={sportOptions}
              value={query.sport ?? []}
              onChange={(sport) => apply({ sport: sport as typeof query.sport })}
            />

            <PlaceField
              place={query.place}
              placeLabel={placeName}
              onChange={(place) =>
                apply(
                  place
                    ? { place: place.code, radius: query.radius ?? DEFAULT_RADIUS, lat: undefined, lng: undefined }
                    : { place: undefined, lat: undefined, lng: undefined },
                )
              }
              extra={
                <div className="flex items-center gap-2">
                  <span aria-hidden="true" className="whitespace-nowrap text-gray-700 text-sm">
                    {t("filters.radiusWithin")}
                  </span>
                  <div className="w-24 shrink-0">
                    <FieldSelect
                      id="search-radius"
                      name="radius"
                      label={t("filters.radiusWithin")}
                      hideLabel
                      size="sm"
                      options={radiusOptions}
                      value={query.radius ? String(query.radius) : hydrated ? null : String(DEFAULT_RADIUS)}
                      disabled={hydrated && !placeSet}
                      placeholder={t("filters.radiusKm", { km: DEFAULT_RADIUS })}
                      onChange={(radius) => apply({ radius: radius ? Number(radius) : undefined })}
                    />
                  </div>
                </div>
              }
            />

            <div className="grid gap-3">
              <FieldSelect
                id="search-region"
                name="region"
                label={t("filters.region")}
                nullValueText={t("filters.anyRegion")}
                options={regionOptions}
                value={query.region ?? null}
                onChange={(region) => {
                  if (region !== (query.region ?? null)) apply({ region: region ?? undefined, department: undefined });
                }}
              />
              <FieldSelect
                id="search-department"
                name="department"
                label={t("filters.department")}
                nullValueText={t("filters.anyDepartment")}
                options={departmentOptions}
                parentValue={query.region ?? null}
                searchable
                value={query.department ?? null}
                onChange={(department) => {
                  if (department !== (query.department ?? null)) apply({ department: department ?? undefined });
                }}
              />
            </div>

            <DatesField
              from={query.from}
              to={query.to}
              future={!query.past}
              onChange={(range) => apply({ from: range.from, to: range.to, range: undefined })}
            />

            <ChipGroup
              legend={t("filters.distance")}
              name="distance"
              chips={DISTANCE_KEYS.map((key) => ({ value: key, label: t(`distance.${key}`) }))}
              values={query.distance ?? []}
              onChange={(distance) => apply({ distance: distance as typeof query.distance })}
            />
            <fieldset className="-mt-3 border-0 p-0">
              <legend className="sr-only">{t("filters.distanceRange")}</legend>
              <div className="flex items-center gap-2 text-gray-700 text-sm">
                <NumberField
                  name="distanceMin"
                  label={t("fields.distanceMin")}
                  placeholder={t("filters.distanceMin")}
                  value={query.distanceMin}
                  onCommit={(distanceMin) => apply({ distanceMin })}
                />
                <span aria-hidden="true">–</span>
                <NumberField
                  name="distanceMax"
                  label={t("fields.distanceMax")}
                  placeholder={t("filters.distanceMax")}
                  value={query.distanceMax}
                  onCommit={(distanceMax) => apply({ distanceMax })}
                />
                <span aria-hidden="true">km</span>
              </div>
            </fieldset>

            <ChipGroup
              legend={t("filters.elevation")}
              name="elevation"
              chips={ELEVATION_BANDS.map((band) => ({
                value: band.key,
                label: t(`elevation.${band.key}`),
                count: facets?.elevation?.[band.key],
              }))}
              values={query.elevation ?? []}
              onChange={(elevation) => apply({ elevation: elevation as typeof query.elevation })}
            />

            <ChipGroup
              legend={t("filters.scope")}
              name="scope"
              chips={EVENT_SCOPES.map((scope) => ({ value: scope, label: t(`scope.${scope}`) }))}
              values={query.scope ?? []}
              onChange={(scope) => apply({ scope: scope as typeof query.scope })}
            />

            <FieldSelect
              id="search-min-rating"
              name="minRating"
              label={t("filters.minRating")}
              placeholder={t("filters.anyRating")}
              options={MIN_RATING_CHOICES.map((value) => ({
                value: String(value),
                label: t("filters.ratingAtLeast", { value: formatNumber(value, locale) }),
              }))}
              value={query.minRating !== undefined ? String(query.minRating) : null}
              onChange={(value) => apply({ minRating: value ? Number(value) : undefined })}
            />

            <fieldset className="space-y-2 border-0 p-0">
              <legend className={FIELD_LABEL_CLASS}>{t("filters.status")}</legend>
              <Toggle
                name="cancelled"
                label={t("filters.includeCancelled")}
                checked={query.cancelled === true}
                onChange={(on) => apply({ cancelled: on || undefined })}
              />
              <Toggle
                name="past"
                label={t("filters.includeFinished")}
                checked={query.past === true}
                onChange={(on) => apply({ past: on || undefined })}
              />
            </fieldset>
            {view !== DEFAULT_VIEW ? <input type="hidden" name={VIEW_PARAM} value={view} /> : null}
            {/* Coordinates ("around me" by position, a shared link) have no field of their own. */}
            {!query.place && query.lat !== undefined && query.lng !== undefined ? (
              <>
                <input type="hidden" name="lat" value={query.lat} />
                <input type="hidden" name="lng" value={query.lng} />
              </>
            ) : null}
          </div>

          <div className="flex items-center gap-3 border-slate-200 border-t bg-white px-4 py-3 lg:rounded-b-xl">
            <button
              type="submit"
              className="flex-1 rounded-lg bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2"
            >
              <span className="lg:hidden">{countText}</span>
              <span className="hidden lg:inline">{t("filters.submit")}</span>
            </button>
            {filterCount > 0 ? (
              <Link
                to={pathname}
                className="whitespace-nowrap rounded-md px-2 py-2 font-medium text-brand-700 text-sm underline-offset-2 hover:underline"
              >
                {t("filters.resetShort")}
              </Link>
            ) : null}
          </div>
        </form>
      </section>
    </div>
  );
}

function Toggle({
  name,
  label,
  checked,
  onChange,
}: {
  name: string;
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="flex cursor-pointer items-center gap-3 text-ink-900 text-sm">
      <input
        type="checkbox"
        name={name}
        value="1"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="peer sr-only"
      />
      <span
        aria-hidden="true"
        className="relative h-6 w-10 shrink-0 rounded-full bg-slate-300 transition peer-checked:bg-brand-700 peer-focus-visible:ring-2 peer-focus-visible:ring-blue-600 peer-focus-visible:ring-offset-1 after:absolute after:top-0.5 after:left-0.5 after:size-5 after:rounded-full after:bg-white after:shadow after:transition peer-checked:after:translate-x-4"
      />
      <span>{label}</span>
    </label>
  );
}

/** A kilometre bound: sent when the field is left or Enter is pressed, not at each keystroke. */
function NumberField({
  name,
  label,
  placeholder,
  value,
  onCommit,
}: {
  name: string;
  label: string;
  placeholder: string;
  value: number | undefined;
  onCommit: (value: number | undefined) => void;
}) {
  const commit = (text: string) => {
    const number = text.trim() === "" ? undefined : Number(text);
    if (number !== undefined && (!Number.isFinite(number) || number < 0 || number > 1000)) return;
    if (number !== value) onCommit(number);
  };
  return (
    <input
      key={String(value)}
      type="number"
      name={name}
      min={0}
      max={1000}
      step="any"
      inputMode="decimal"
      defaultValue={value}
      aria-label={label}
      placeholder={placeholder}
      onBlur={(event) => commit(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          commit(event.currentTarget.value);
        }
      }}
      className="h-9 w-20 min-w-0 rounded-md border border-gray-400 bg-white px-2 text-gray-900 text-sm placeholder:text-gray-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
    />
  );
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside `container`, wrapping from the last control to the first. */
export function trapFocus(event: KeyboardEvent, container: HTMLElement | null) {
  if (!container) return;
  const items = Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => el.getClientRects().length > 0,
  );
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  const outside = !container.contains(active);
  if (event.shiftKey && (active === first || active === container || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}
