import { Map as MapIcon } from "lucide-react";
import { useTranslation } from "react-i18next";

/** The map's frame while MapLibre loads (and without JavaScript). */
export function MapPlaceholder() {
  const { t } = useTranslation("landing");
  return (
    <div
      className="flex h-[420px] items-center justify-center rounded-xl border border-slate-200 bg-slate-100 text-ink-500 sm:h-[520px]"
      data-testid="map-placeholder"
    >
      <p className="flex items-center gap-2 text-sm">
        <MapIcon className="size-5" aria-hidden="true" />
        {t("views.mapLoading")}
      </p>
    </div>
  );
}
