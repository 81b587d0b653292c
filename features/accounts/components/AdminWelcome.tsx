import { Info } from "lucide-react";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../../../shared/format.ts";
import type { LegalSettings } from "../../../shared/static-pages.ts";

/** What is left to set up on this installation, as the server sees its settings. */
export type SiteSetup = {
  /** Size of the demo catalogue a first start loads (DEMO_EVENTS; 0: none). */
  demoEvents: number;
  /** Legal settings left empty: the legal pages say "not provided" for them. */
  missingLegal: { field: keyof LegalSettings; setting: string }[];
  /** No SMTP_URL: mail is written to DATA_DIR/mail instead of being sent. */
  mailOutbox: boolean;
};

/** Setting names are the same in every language. */
const SMTP_SETTING = "SMTP_URL";

export function setupLeft(setup: SiteSetup | null | undefined): boolean {
  return Boolean(setup && (setup.demoEvents > 0 || setup.missingLegal.length > 0 || setup.mailOutbox));
}

/**
 * The admin's first page after installation: what the demo data is, and what to set before opening
 * the site — shown while anything is left, folded away with one click (no JavaScript needed).
 */
export function AdminWelcome({ setup }: { setup: SiteSetup | null | undefined }) {
  const { t, i18n } = useTranslation("account");
  if (!setup || !setupLeft(setup)) return null;
  const code = "rounded bg-white px-1 font-mono text-[0.85em] text-ink-900";
  return (
    <details
      open
      className="mb-6 rounded-xl border border-sky-200 bg-sky-50 p-4 text-ink-800"
      data-testid="admin-welcome"
    >
      <summary className="flex cursor-pointer items-center gap-2 font-semibold text-ink-900">
        <Info className="size-5 shrink-0 text-sky-700" aria-hidden="true" />
        {t("admin.welcome.title")}
      </summary>
      <div className="mt-3 space-y-3 text-sm leading-relaxed">
        {setup.demoEvents > 0 ? (
          <div>
            <p>
              {t("admin.welcome.demo", {
                count: setup.demoEvents,
                formatted: formatNumber(setup.demoEvents, i18n.language),
              })}
            </p>
            <p className="mt-1">
              {t("admin.welcome.demoNext")} {/* i18n-ignore: setting names are the same in every language */}
              <code className={code}>{"DEMO_EVENTS=0"}</code>, <code className={code}>{"DEMO_MEMBERS=0"}</code>
            </p>
          </div>
        ) : null}
        {setup.missingLegal.length > 0 ? (
          <div>
            <p>{t("admin.welcome.legal")}</p>
            <ul className="mt-1 list-disc space-y-0.5 pl-5">
              {setup.missingLegal.map(({ field, setting }) => (
                <li key={field}>
                  <code className={code}>{setting}</code> — {t(`admin.welcome.legalFields.${field}`)}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {setup.mailOutbox ? (
          <p>
            {t("admin.welcome.mail")} <code className={code}>{SMTP_SETTING}</code>
          </p>
        ) : null}
        <p className="text-ink-700">{t("admin.welcome.docs")}</p>
      </div>
    </details>
  );
}
