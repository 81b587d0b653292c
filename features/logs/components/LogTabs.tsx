import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { cx } from "../../../shared/ui/cx.ts";
import { LOG_TABS, type LogTab } from "../logs.contract.ts";

/** The three logs of /admin/journaux, one link each (`?tab=`): a tab is an address to share. */
export function LogTabs({ current }: { current: LogTab }) {
  const { t } = useTranslation("admin");
  return (
    <nav aria-label={t("logs.tabs.label")} className="mb-4 border-slate-200 border-b">
      <ul className="-mb-px flex gap-1 overflow-x-auto">
        {LOG_TABS.map((tab) => (
          <li key={tab}>
            <Link
              to={tab === "app" ? "?" : `?tab=${tab}`}
              aria-current={tab === current ? "page" : undefined}
              className={cx(
                "inline-block whitespace-nowrap border-b-2 px-4 py-2.5 font-semibold text-sm",
                tab === current
                  ? "border-brand-700 text-brand-800"
                  : "border-transparent text-ink-700 hover:border-slate-300 hover:text-ink-900",
              )}
            >
              {t(`logs.tabs.${tab}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
