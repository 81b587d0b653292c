import { BellPlus } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { loginHref, pagePath } from "../../../shared/i18n/pages.ts";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { useViewer } from "../../identity/components/viewer.tsx";

/** The search page's one-shot parameter: "save this search as an alert" once signed in. */
export const ALERT_PARAM = "alert";

/**
 * "Alert me": saves the search in force as an alert. A visitor goes to the login page and comes
 * back to the same search with ?alert=1, which saves it as soon as the page knows the member.
 */
export function AlertMeButton({ query, label, locale }: { query: string; label: string; locale: Locale }) {
  const { t } = useTranslation("account");
  const viewer = useViewer();
  const [pending, setPending] = useState(false);
  const asked = useRef(false);

  async function save() {
    setPending(true);
    try {
      const response = await apiFetch("/api/user/alerts", { method: "POST", body: JSON.stringify({ query, label }) });
      if (response.status === 201) return await showToast("success", t("alerts.created"));
      if (response.status === 200) return await showToast("info", t("alerts.exists"));
      const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
      if (body?.error?.code === "EMAIL_VERIFICATION_REQUIRED") return await showToast("error", t("alerts.verifyFirst"));
      await showToast("error", body?.error?.message ?? t("alerts.error"));
    } finally {
      setPending(false);
    }
  }

  const latestSave = useRef(save);
  latestSave.current = save;

  // Back from the login page: save once, then drop the parameter from the address.
  useEffect(() => {
    if (viewer.status !== "member" || asked.current) return;
    const url = new URL(window.location.href);
    if (url.searchParams.get(ALERT_PARAM) !== "1") return;
    asked.current = true;
    url.searchParams.delete(ALERT_PARAM);
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    void latestSave.current();
  }, [viewer.status]);

  const className =
    "inline-flex h-9 items-center gap-1.5 rounded-full border border-brand-700 bg-white px-3 font-semibold text-brand-700 text-sm hover:bg-brand-50 disabled:opacity-60";
  const content = (
    <>
      <BellPlus className="size-4" aria-hidden="true" />
      {t("alerts.button")}
    </>
  );
  if (viewer.status === "anonymous") {
    // Back to the same search on the search page (landing pages are searches too).
    const back = `${pagePath("home", locale)}?${query}&${ALERT_PARAM}=1`;
    const href = loginHref(locale, back);
    return (
      <a href={href} className={className} title={t("alerts.buttonHint")} data-testid="alert-me">
        {content}
      </a>
    );
  }
  return (
    <button
      type="button"
      onClick={save}
      disabled={pending || viewer.status === "loading"}
      className={className}
      title={t("alerts.buttonHint")}
      data-testid="alert-me"
    >
      {content}
    </button>
  );
}
