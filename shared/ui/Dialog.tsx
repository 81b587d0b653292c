import { X } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef } from "react";

type DialogProps = {
  title: ReactNode;
  children: ReactNode;
  /** Every way out the visitor takes: Escape, the close button, a click beside the dialog. */
  onClose: () => void;
  /** Shown while true (default); a dialog rendered only when needed may leave it out. */
  open?: boolean;
  /** Buttons at the bottom, the last one first on phones. */
  actions?: ReactNode;
  /** A close button (×) in the corner, with this accessible name. */
  closeLabel?: string;
  /** "alertdialog" when it asks to confirm something that loses data. */
  role?: "dialog" | "alertdialog";
  testId?: string;
};

/**
 * The site's one modal dialog, on the native <dialog> element: the browser keeps the focus inside
 * and the rest of the page inert. The focus goes to the element marked `data-autofocus`, else the
 * first control, and back where it was when the dialog closes.
 */
export function Dialog({
  title,
  children,
  onClose,
  open = true,
  actions,
  closeLabel,
  role = "dialog",
  testId,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    }
    dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    return () => {
      if (typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
      if (previous?.isConnected) previous.focus();
    };
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click has its keyboard twin in Escape (onCancel).
    <dialog
      ref={ref}
      role={role === "alertdialog" ? "alertdialog" : undefined}
      aria-labelledby={titleId}
      data-testid={testId}
      // Escape: the page decides (the dialog may hold unsaved input).
      onCancel={(event) => {
        event.preventDefault();
        close.current();
      }}
      // A click on the backdrop lands on the <dialog> itself, outside its padded content.
      onClick={(event) => {
        if (event.target === event.currentTarget) close.current();
      }}
      className="m-auto max-h-[90vh] w-[calc(100%-1.5rem)] max-w-lg overflow-y-auto rounded-2xl bg-white p-0 text-ink-900 shadow-xl backdrop:bg-slate-900/50"
    >
      {open && (
        <div className="p-4 sm:p-5">
          <div className="flex items-start justify-between gap-3">
            <h2 id={titleId} className="font-bold text-ink-900 text-lg">
              {title}
            </h2>
            {closeLabel && (
              <button
                type="button"
                onClick={() => close.current()}
                className="-m-1 rounded-lg p-1 text-ink-500 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700"
              >
                <X className="h-5 w-5" aria-hidden="true" />
                <span className="sr-only">{closeLabel}</span>
              </button>
            )}
          </div>
          <div className="mt-3 text-ink-700 text-sm">{children}</div>
          {actions && <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{actions}</div>}
        </div>
      )}
    </dialog>
  );
}
