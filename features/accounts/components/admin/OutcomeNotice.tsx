import { useEffect } from "react";
import { cx } from "../../../../shared/ui/cx.ts";
import { showToast } from "../../../../shared/ui/lazy-toasts.tsx";
import { useHydrated } from "../../../../shared/ui/use-hydrated.ts";

export type Outcome = { tone: "success" | "error"; text: string };

/**
 * What an admin's form just did: a toast once the page runs JavaScript, else (the form posted
 * without it, the page rendered again by the server) a line at the top of the page.
 */
export function OutcomeNotice({ outcome }: { outcome: Outcome | null }) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (outcome) void showToast(outcome.tone, outcome.text);
  }, [outcome]);
  if (!outcome || hydrated) return null;
  return (
    <p
      role={outcome.tone === "error" ? "alert" : "status"}
      className={cx(
        "mb-4 rounded-lg px-4 py-3 text-sm",
        outcome.tone === "error" ? "bg-red-50 text-red-900" : "bg-emerald-50 text-emerald-900",
      )}
    >
      {outcome.text}
    </p>
  );
}
