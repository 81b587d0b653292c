import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { z } from "zod";
import { apiFetch } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { posterListSchema } from "../poster.contract.ts";

type Item = z.infer<typeof posterListSchema>["items"][number];

/** The account area's posters tab: the member's posters, to open or delete. */
export function MyPosters({ initial, locale }: { initial: Item[]; locale: Locale }) {
  const { t } = useTranslation("posters");
  const [items, setItems] = useState(initial);
  if (!items.length) return <p className="text-ink-700">{t("creator.none")}</p>;
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {items.map((item) => (
        <li key={item.id} className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 p-3">
          <span
            aria-hidden="true"
            className="h-14 w-10 shrink-0 rounded border border-slate-300"
            style={{ background: `linear-gradient(160deg, ${item.colors.background} 60%, ${item.colors.track} 60%)` }}
          />
          <div className="min-w-0 flex-1 basis-40">
            <p className="truncate font-semibold text-ink-900">{item.title}</p>
            <p className="text-ink-700 text-xs">
              {item.size.replace("x", " × ")} · {t(`creator.styles.${item.mapStyle}`)}
              {item.exported ? ` · ${t("creator.exportedBadge")}` : ""}
            </p>
          </div>
          <Link
            className="font-semibold text-brand-700 text-sm underline"
            to={pagePath("posterEdit", locale, { id: item.id })}
          >
            {t("creator.open")}
          </Link>
          <button
            type="button"
            className="text-red-700 text-sm underline"
            onClick={async () => {
              const response = await apiFetch(`/api/poster/${item.id}`, { method: "DELETE" });
              if (response.ok) {
                setItems((list) => list.filter((i) => i.id !== item.id));
                await showToast("success", t("creator.deleted"));
              }
            }}
          >
            {t("creator.delete")}
          </button>
        </li>
      ))}
    </ul>
  );
}
