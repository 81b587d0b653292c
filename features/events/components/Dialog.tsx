import { X } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef } from "react";

/**
 * A modal dialog on the native <dialog> element: the browser traps the focus, closes it on Escape
 * and gives the focus back to the opener. `open` drives it; `onClose` hears every way out.
 */
export function Dialog({
  open,
  onClose,
  title,
  closeLabel,
  children,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  closeLabel: string;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid={testId}
      className="m-auto w-[calc(100%-1.5rem)] max-w-md rounded-2xl bg-white p-0 text-ink-900 shadow-xl backdrop:bg-slate-900/50"
    >
      {open && (
        <div className="p-4 sm:p-5">
          <div className="flex items-start justify-between gap-3">
            <h2 id={titleId} className="font-bold text-lg">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              className="-m-1 rounded-lg p-1 text-ink-500 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              <X className="h-5 w-5" aria-hidden="true" />
              <span className="sr-only">{closeLabel}</span>
            </button>
          </div>
          <div className="mt-3">{children}</div>
        </div>
      )}
    </dialog>
  );
}
