import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { type Blocker, useBlocker } from "react-router";
import { Dialog } from "../../../shared/ui/Dialog.tsx";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";

/**
 * A warning before leaving the form with unsaved changes: the browser's own prompt when the page
 * unloads, `blocker` for links inside the site (shown by LeaveDialog). A navigation the form makes
 * itself sets `skipBlocker` first.
 */
export function useLeaveGuard(dirty: boolean) {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const skipBlocker = useRef(false);

  // Leaving the page with unsaved changes: the browser's own prompt…
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  // …and ours for links inside the site.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current && !skipBlocker.current && currentLocation.pathname !== nextLocation.pathname,
  );

  return { blocker, skipBlocker };
}

/** "Leave without saving?" for a blocked navigation inside the site. */
export function LeaveDialog({ blocker }: { blocker: Extract<Blocker, { state: "blocked" }> }) {
  const { t } = useTranslation("editor");
  return (
    <Dialog
      role="alertdialog"
      title={t("leave.title")}
      onClose={() => blocker.reset()}
      actions={
        <>
          <button type="button" className={SECONDARY_BUTTON} onClick={() => blocker.reset()} data-autofocus>
            {t("leave.stay")}
          </button>
          <button type="button" className={PRIMARY_BUTTON} onClick={() => blocker.proceed()}>
            {t("leave.leave")}
          </button>
        </>
      }
    >
      <p>{t("leave.text")}</p>
    </Dialog>
  );
}
