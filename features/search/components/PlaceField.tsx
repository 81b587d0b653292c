import { LoaderCircle, LocateFixed, MapPin, X } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import { cx } from "../../../shared/ui/cx.ts";
import { FIELD_LABEL_CLASS } from "../../../shared/ui/FieldLabel.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { useHydrated } from "../../../shared/ui/use-hydrated.ts";
import { type City, cityFromBody, findCities } from "../../geo/cities.ts";

type Props = {
  /** Commune code or postal code of the searched place. */
  place?: string;
  /** Its name, as the server resolved it. */
  placeLabel?: string;
  onChange: (place: { code: string; label: string } | null) => void;
  /** Shown beside "around me" (the radius menu). */
  extra?: ReactNode;
};

const INPUT =
  "h-10 w-full rounded-md border border-gray-400 bg-white pr-9 pl-9 text-base text-gray-900 placeholder:text-gray-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600";

/** "Grenoble (38000)". */
function cityLabel(city: City): string {
  return city.postalCode ? `${city.name} (${city.postalCode})` : city.name;
}

/**
 * The place to search around: an autocomplete over POST /api/find-city, and "around me" through
 * the browser's geolocation and POST /api/geocode-location. Without JavaScript it is a plain text
 * field taking a postal or commune code.
 */
export function PlaceField({ place, placeLabel, onChange, extra }: Props) {
  const { t } = useTranslation("landing");
  const { t: tc } = useTranslation("common");
  const hydrated = useHydrated();
  const baseId = useId();
  const inputId = `place-${baseId}`;
  const listId = `${inputId}-list`;
  const hintId = `${inputId}-hint`;

  const shown = placeLabel ?? place ?? "";
  const [text, setText] = useState(shown);
  const [cities, setCities] = useState<City[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [busy, setBusy] = useState(false);
  const [locating, setLocating] = useState(false);
  const typed = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);

  // The URL changed (a choice, back/forward): show its place.
  useEffect(() => {
    typed.current = false;
    setText(shown);
    setOpen(false);
  }, [shown]);

  // Suggestions while typing, debounced; the latest answer wins.
  useEffect(() => {
    if (!typed.current) return;
    const query = text.trim();
    if (query.length < 2) {
      setCities([]);
      setOpen(false);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setBusy(true);
      try {
        const { cities: found } = await findCities(query, controller.signal);
        setCities(found);
        setActive(found.length ? 0 : -1);
        setOpen(true);
      } catch {
        // aborted by the next keystroke, or offline: keep the previous list
      } finally {
        if (!controller.signal.aborted) setBusy(false);
      }
    }, 220);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);

  const choose = (city: City) => {
    typed.current = false;
    setText(cityLabel(city));
    setOpen(false);
    onChange({ code: city.code, label: cityLabel(city) });
  };

  const clear = () => {
    typed.current = false;
    setText("");
    setCities([]);
    setOpen(false);
    onChange(null);
    inputRef.current?.focus();
  };

  const geolocationRefused = () => void showToast("error", tc("errors.geolocationNotAllowed"));

  const aroundMe = () => {
    if (!("geolocation" in navigator)) return geolocationRefused();
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      async (position) => {
        try {
          const response = await apiFetch("/api/geocode-location", {
            method: "POST",
            body: JSON.stringify({ lat: position.coords.latitude, lng: position.coords.longitude }),
          });
          const city = response.ok ? cityFromBody(await response.json()) : null;
          if (city) choose(city);
          else void showToast("error", tc("errors.noPlaceHere"));
        } catch {
          void showToast("error", tc("errors.generic"));
        } finally {
          setLocating(false);
        }
      },
      () => {
        setLocating(false);
        geolocationRefused();
      },
      { enableHighAccuracy: false, timeout: 10_000, maximumAge: 600_000 },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!cities.length) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((index) => (index + step + cities.length) % cities.length);
    } else if (event.key === "Enter") {
      if (open && cities[active]) {
        event.preventDefault();
        choose(cities[active]);
      } else if (typed.current) {
        // Enter in the field must not submit the form with a half-typed place.
        event.preventDefault();
      }
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  if (!hydrated) {
    return (
      <div key="plain">
        <label htmlFor={inputId} className={FIELD_LABEL_CLASS}>
          {t("filters.place")}
        </label>
        <div className="relative">
          <MapPin className="-translate-y-1/2 absolute top-1/2 left-3 size-4 text-gray-600" aria-hidden="true" />
          <input
            id={inputId}
            type="text"
            name="place"
            defaultValue={place}
            inputMode="numeric"
            aria-describedby={hintId}
            placeholder={t("filters.placeCodePlaceholder")}
            className={INPUT}
          />
        </div>
        <p id={hintId} className="mt-1 text-gray-700 text-xs">
          {placeLabel ? t("filters.around", { place: placeLabel }) : t("filters.placeCodeHint")}
        </p>
        {extra ? <div className="mt-2">{extra}</div> : null}
      </div>
    );
  }

  const activeId = open && active >= 0 ? `${listId}-${active}` : undefined;
  return (
    <div key="enhanced" className="relative">
      <div className="mb-1 flex items-center justify-between gap-2">
        <label htmlFor={inputId} className="font-medium text-gray-900 text-sm">
          {t("filters.place")}
        </label>
        <button
          type="button"
          onClick={aroundMe}
          disabled={locating}
          className="-my-1 inline-flex items-center gap-1 whitespace-nowrap rounded-md px-1 py-1 font-medium text-brand-700 text-sm hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:opacity-60"
        >
          {locating ? (
            <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
          ) : (
            <LocateFixed className="size-4" aria-hidden="true" />
          )}
          {t("filters.aroundMe")}
        </button>
      </div>
      <div className="relative">
        <MapPin className="-translate-y-1/2 absolute top-1/2 left-3 size-4 text-gray-600" aria-hidden="true" />
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={activeId}
          autoComplete="off"
          value={text}
          placeholder={t("filters.placePlaceholder")}
          onChange={(event) => {
            typed.current = true;
            setText(event.target.value);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => cities.length && typed.current && setOpen(true)}
          onBlur={() => setOpen(false)}
          className={INPUT}
        />
        {busy ? (
          <LoaderCircle
            className="-translate-y-1/2 absolute top-1/2 right-3 size-4 animate-spin text-gray-600"
            aria-hidden="true"
          />
        ) : text ? (
          <button
            type="button"
            onClick={clear}
            aria-label={t("filters.clearPlace")}
            className="-translate-y-1/2 absolute top-1/2 right-1.5 rounded p-1 text-gray-700 hover:bg-gray-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        ) : null}
      </div>
      <div
        id={listId}
        role="listbox"
        aria-label={t("filters.placeSuggestions")}
        hidden={!open}
        className="absolute z-30 mt-1 max-h-72 w-full overflow-auto rounded-md border border-gray-300 bg-white py-1 shadow-lg"
      >
        {cities.map((city, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard is handled by the combobox input
          <div
            key={city.code}
            id={`${listId}-${index}`}
            role="option"
            tabIndex={-1}
            aria-selected={index === active}
            onMouseDown={(event) => event.preventDefault()}
            onMouseMove={() => setActive(index)}
            onClick={() => choose(city)}
            className={cx(
              "flex cursor-pointer items-baseline justify-between gap-2 px-3 py-2 text-sm",
              index === active && "bg-orange-50 text-orange-900",
            )}
          >
            <span className="font-medium">{city.name}</span>
            <span className="text-gray-700 text-xs">
              {[city.postalCode, city.departmentName ?? city.departmentCode].filter(Boolean).join(" · ")}
            </span>
          </div>
        ))}
      </div>
      {open && cities.length === 0 ? (
        <p role="status" className="absolute z-30 mt-1 w-full rounded-md border bg-white px-3 py-2 text-sm shadow">
          {tc("errors.noPlace")}
        </p>
      ) : null}
      {extra ? <div className="mt-2">{extra}</div> : null}
      {place ? <input type="hidden" name="place" value={place} /> : null}
    </div>
  );
}
