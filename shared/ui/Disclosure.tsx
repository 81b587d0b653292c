import type { LucideIcon } from "lucide-react";
import { type ReactNode, useId } from "react";
import { SECONDARY_BUTTON } from "./fields.tsx";

export const CARD = "rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";

/**
 * A card of the event page that shows a heading and a line, and opens its form in place on demand
 * (a button with aria-expanded; the form follows it in the reading order). `action` replaces the
 * button when the form is not for this visitor (a sign-in link). With `anchor`, the button also
 * works without JavaScript: it asks the page again with ?open=<anchor>, and the page opens it.
 */
export function Disclosure({
  icon: Icon,
  heading,
  intro,
  openLabel,
  open,
  onOpenChange,
  action,
  children,
  testId,
  status,
  anchor,
}: {
  icon: LucideIcon;
  heading: string;
  intro: string;
  openLabel: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  action?: ReactNode;
  children: ReactNode;
  testId?: string;
  /** A line saying what just happened (a message sent). */
  status?: string;
  anchor?: string;
}) {
  const headingId = useId();
  const button = (
    <button
      type={anchor ? "submit" : "button"}
      name={anchor ? "open" : undefined}
      value={anchor}
      className={`${SECONDARY_BUTTON} mt-3 w-full sm:w-auto`}
      // No aria-controls: the button gives way to the form it opens, which never exists beside it.
      aria-expanded={open}
      onClick={(event) => {
        event.preventDefault();
        onOpenChange(true);
      }}
    >
      {openLabel}
    </button>
  );
  return (
    <section id={anchor} aria-labelledby={headingId} className={CARD} data-testid={testId}>
      <h2 id={headingId} className="flex items-center gap-2 font-bold text-ink-900 text-lg">
        <Icon className="h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
        {heading}
      </h2>
      <p className="mt-1 text-ink-700 text-sm">{intro}</p>
      {status && (
        <p role="status" className="mt-3 rounded-lg bg-emerald-50 p-3 text-emerald-900 text-sm">
          {status}
        </p>
      )}
      {action ??
        (!open &&
          (anchor ? (
            <form method="get" action={`#${anchor}`}>
              {button}
            </form>
          ) : (
            button
          )))}
      {open && !action && <div className="mt-3">{children}</div>}
    </section>
  );
}
