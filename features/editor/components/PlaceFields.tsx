import { LoaderCircle, MapPin } from "lucide-react";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import { formatNumber } from "../../../shared/format.ts";
import { FieldError, INPUT_CLASS } from "../../../shared/ui/fields.tsx";
import { Select } from "../../../shared/ui/Select.tsx";
import { type City, cityFromBody, findCities } from "../../geo/cities.ts";
import { BoxError, FieldBox, fieldId, HINT_CLASS, LABEL_CLASS, RequiredMark, TextInput } from "./controls.tsx";
import type { EventDraft } from "./form-model.ts";
import { PinMap } from "./PinMap.tsx";

type PlaceDraft = Pick<
  EventDraft,
  "communeCode" | "city" | "zipcode" | "address" | "place" | "countryCode" | "lat" | "lng"
>;

type Props = {
  value: PlaceDraft;
  onChange: (patch: Partial<PlaceDraft>) => void;
  errors: Record<string, string>;
  countries: readonly { code: string; name: string }[];
  locale: "fr" | "en";
};

const cityLabel = (city: City) => (city.postalCode ? `${city.name} (${city.postalCode})` : city.name);

/** "Lyon (69001)": the city field shows the commune with its postal code once chosen. */
function shownCity(value: PlaceDraft): string {
  if (!value.city) return "";
  return value.communeCode && value.zipcode ? `${value.city} (${value.zipcode})` : value.city;
}

/**
 * Where the event takes place: in France a commune picked from the autocomplete (POST
 * /api/find-city), elsewhere a typed city; the address, the place's name, and a pin on a map
 * (dropping it names the nearest commune through POST /api/geocode-location).
 */
export function PlaceFields({ value, onChange, errors, countries, locale }: Props) {
  const { t } = useTranslation("editor");
  const inFrance = value.countryCode === "FR";
  const cityPath = "city";
  const inputId = fieldId(cityPath);
  const listId = `${inputId}-list`;
  const [text, setText] = useState(shownCity(value));
  const [cities, setCities] = useState<City[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [busy, setBusy] = useState(false);
  const [geocodeNote, setGeocodeNote] = useState<string | null>(null);
  const typed = useRef(false);
  const centres = useRef(new Map<string, { lat: number; lng: number }>());

  // A draft restored or a pin dropped: show the commune it names.
  const shown = shownCity(value);
  useEffect(() => {
    if (!typed.current) setText(shown);
  }, [shown]);

  useEffect(() => {
    if (!typed.current || !inFrance) return;
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
        const { cities: found, centres: foundCentres } = await findCities(query, controller.signal);
        for (const [code, centre] of foundCentres) centres.current.set(code, centre);
        setCities(found);
        setActive(found.length ? 0 : -1);
        setOpen(true);
      } catch {
        // aborted by the next keystroke, or offline
      } finally {
        if (!controller.signal.aborted) setBusy(false);
      }
    }, 220);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, inFrance]);

  const choose = (city: City) => {
    typed.current = false;
    setText(cityLabel(city));
    setOpen(false);
    setGeocodeNote(null);
    const patch: Partial<PlaceDraft> = {
      communeCode: city.code,
      city: city.name,
      zipcode: city.postalCode ?? value.zipcode,
    };
    // The pin goes to the commune's centre (find-city answers carry it).
    const centre = centres.current.get(city.code);
    onChange(centre ? { ...patch, lat: centre.lat, lng: centre.lng } : patch);
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
      }
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  const dropped = async (lat: number, lng: number) => {
    onChange({ lat, lng });
    setGeocodeNote(null);
    try {
      const response = await apiFetch("/api/geocode-location", {
        method: "POST",
        body: JSON.stringify({ lat, lng }),
      });
      const city = response.ok ? cityFromBody(await response.json()) : null;
      if (!city) {
        setGeocodeNote(t("place.noCommune"));
        return;
      }
      typed.current = false;
      onChange({
        lat,
        lng,
        communeCode: city.code,
        city: city.name,
        zipcode: city.postalCode ?? "",
        countryCode: "FR",
      });
      setGeocodeNote(t("place.communeFound", { city: cityLabel(city) }));
    } catch {
      setGeocodeNote(t("place.noCommune"));
    }
  };

  const cityError = errors.city ?? errors.communeCode;
  const activeId = open && active >= 0 ? `${listId}-${active}` : undefined;
  const described = [`${inputId}-hint`, cityError ? `${inputId}-error` : null].filter(Boolean).join(" ");
  const coordinate = (n: number | null) => (n === null ? "" : formatNumber(n, locale, { maximumFractionDigits: 5 }));

  return (
    <fieldset className="space-y-4">
      <legend className="mb-2 font-bold text-ink-900 text-lg">{t("place.heading")}</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <FieldBox path="countryCode">
          <Select
            id={fieldId("countryCode")}
            label={t("place.country")}
            options={countries.map((c) => ({ value: c.code, label: c.name }))}
            value={value.countryCode}
            searchable
            onChange={(code) => {
              const countryCode = String(code ?? "FR");
              onChange(countryCode === "FR" ? { countryCode } : { countryCode, communeCode: null });
            }}
          />
          <BoxError path="countryCode" error={errors.countryCode} />
        </FieldBox>
        <FieldBox path={cityPath} className="relative">
          <label htmlFor={inputId} className={LABEL_CLASS}>
            {inFrance ? t("place.commune") : t("place.city")}
            <RequiredMark />
          </label>
          <div className="relative">
            <MapPin className="-translate-y-1/2 absolute top-1/2 left-3 h-4 w-4 text-ink-500" aria-hidden="true" />
            {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: a combobox in France, a plain field elsewhere (no aria-expanded then) */}
            <input
              id={inputId}
              type="text"
              role={inFrance ? "combobox" : undefined}
              aria-autocomplete={inFrance ? "list" : undefined}
              aria-expanded={inFrance ? open : undefined}
              aria-controls={inFrance ? listId : undefined}
              aria-activedescendant={activeId}
              aria-invalid={cityError ? true : undefined}
              aria-required
              aria-describedby={described}
              autoComplete="off"
              value={text}
              placeholder={inFrance ? t("place.communePlaceholder") : undefined}
              onChange={(event) => {
                typed.current = true;
                setText(event.target.value);
                // Typing drops the commune picked before; the city name is what is typed.
                onChange({ city: event.target.value.trim(), communeCode: null });
              }}
              onKeyDown={onKeyDown}
              onBlur={() => setOpen(false)}
              className={`${INPUT_CLASS} pl-9`}
            />
            {busy ? (
              <LoaderCircle
                className="-translate-y-1/2 absolute top-1/2 right-3 h-4 w-4 animate-spin text-ink-500"
                aria-hidden="true"
              />
            ) : null}
          </div>
          {inFrance ? (
            <div
              id={listId}
              role="listbox"
              aria-label={t("place.suggestions")}
              hidden={!open}
              className="absolute z-30 mt-1 max-h-72 w-full overflow-auto rounded-md border border-slate-300 bg-white shadow-lg"
            >
              {cities.length === 0 ? (
                <p className="px-3 py-2 text-ink-700 text-sm">{t("common:errors.noPlace")}</p>
              ) : (
                cities.map((city, index) => (
                  <div
                    key={city.code}
                    id={`${listId}-${index}`}
                    role="option"
                    tabIndex={-1}
                    aria-selected={index === active}
                    onMouseDown={(event) => {
                      event.preventDefault();
                      choose(city);
                    }}
                    onKeyDown={() => undefined}
                    className={`cursor-pointer px-3 py-2 text-sm ${index === active ? "bg-brand-50 font-semibold text-ink-900" : "text-ink-900 hover:bg-slate-50"}`}
                  >
                    {cityLabel(city)}
                    {city.departmentName ? (
                      <span className="text-ink-500">
                        {" "}
                        · {city.departmentName} ({city.departmentCode})
                      </span>
                    ) : null}
                  </div>
                ))
              )}
            </div>
          ) : null}
          <p id={`${inputId}-hint`} className={HINT_CLASS}>
            {inFrance
              ? value.communeCode
                ? t("place.communeChosen", { city: shownCity(value) })
                : t("place.communeHint")
              : t("place.cityHint")}
          </p>
          <FieldError id={`${inputId}-error`} message={cityError} />
        </FieldBox>
        <TextInput
          path="address"
          label={t("place.address")}
          value={value.address}
          onChange={(address) => onChange({ address })}
          error={errors.address}
          autoComplete="street-address"
        />
        <TextInput
          path="zipcode"
          label={t("place.zipcode")}
          value={value.zipcode}
          onChange={(zipcode) => onChange({ zipcode })}
          error={errors.zipcode}
          inputMode="numeric"
          autoComplete="postal-code"
        />
        <TextInput
          path="place"
          label={t("place.place")}
          hint={t("place.placeHint")}
          value={value.place}
          onChange={(place) => onChange({ place })}
          error={errors.place}
          boxClassName="sm:col-span-2"
        />
      </div>
      <div>
        <p className={LABEL_CLASS}>{t("place.map")}</p>
        <PinMap lat={value.lat} lng={value.lng} onMove={dropped} label={t("place.mapLabel")} />
        <p className="mt-1 text-ink-700 text-sm" aria-live="polite" data-testid="pin-status">
          {value.lat !== null && value.lng !== null
            ? t("place.coordinates", { latitude: coordinate(value.lat), longitude: coordinate(value.lng) })
            : t("place.noPin")}
          {geocodeNote ? ` ${geocodeNote}` : ""}
        </p>
        <CoordinateFields lat={value.lat} lng={value.lng} onApply={dropped} errors={errors} locale={locale} />
      </div>
    </fieldset>
  );
}

/** Typed coordinates, for precise places and for anyone not using the map. */
function CoordinateFields({
  lat,
  lng,
  onApply,
  errors,
  locale,
}: {
  lat: number | null;
  lng: number | null;
  onApply: (lat: number, lng: number) => void;
  errors: Record<string, string>;
  locale: "fr" | "en";
}) {
  const { t } = useTranslation("editor");
  const text = (n: number | null) => (n === null ? "" : locale === "fr" ? String(n).replace(".", ",") : String(n));
  const [latText, setLatText] = useState(text(lat));
  const [lngText, setLngText] = useState(text(lng));
  const [error, setError] = useState<string | undefined>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the pin
  useEffect(() => {
    setLatText(text(lat));
    setLngText(text(lng));
  }, [lat, lng]);
  const apply = () => {
    const a = Number(latText.replace(",", ".").trim());
    const b = Number(lngText.replace(",", ".").trim());
    if (
      !latText.trim() ||
      !lngText.trim() ||
      !Number.isFinite(a) ||
      !Number.isFinite(b) ||
      Math.abs(a) > 90 ||
      Math.abs(b) > 180
    ) {
      setError(t("place.coordinatesInvalid"));
      return;
    }
    setError(undefined);
    onApply(a, b);
  };
  return (
    <details className="mt-2 rounded-lg border border-slate-200 bg-slate-50 p-3">
      <summary className="cursor-pointer font-medium text-ink-900 text-sm">{t("place.typeCoordinates")}</summary>
      <div className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <TextInput
          path="lat"
          label={t("place.lat")}
          value={latText}
          onChange={setLatText}
          inputMode="decimal"
          error={errors.lat}
        />
        <TextInput
          path="lng"
          label={t("place.lng")}
          value={lngText}
          onChange={setLngText}
          inputMode="decimal"
          error={errors.lng}
        />
        <button
          type="button"
          onClick={apply}
          className="col-span-2 inline-flex items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-semibold text-ink-900 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700 sm:col-span-1"
        >
          {t("place.applyCoordinates")}
        </button>
      </div>
      <FieldError id="ef-coordinates-error" message={error} />
    </details>
  );
}
