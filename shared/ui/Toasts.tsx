import { CircleCheck, CircleX, Info, type LucideIcon, TriangleAlert, X } from "lucide-react";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { type Id, Slide, ToastContainer, type ToastContainerProps, toast } from "react-toastify";
import "react-toastify/dist/ReactToastify.css";
import type { ToastType } from "../constants.ts";

export type { ToastType } from "../constants.ts";

/** The product's toast defaults (spec §9). */
export const TOAST_DEFAULTS = {
  position: "top-center",
  autoClose: 4000,
  hideProgressBar: false,
  newestOnTop: true,
  draggable: false,
  theme: "colored",
  transition: Slide,
} as const satisfies ToastContainerProps;

/** Each toast type has its own icon, so the type never depends on colour alone. */
export const TOAST_ICONS: Record<ToastType, LucideIcon> = {
  info: Info,
  success: CircleCheck,
  warning: TriangleAlert,
  error: CircleX,
};

/** One toast id per type and message: showing the same toast twice does not stack it. */
export function toastIdFor(type: ToastType, message: string): string {
  return `${type}:${message}`;
}

function ToastMessage({ type, message }: { type: ToastType; message: string }) {
  const { t } = useTranslation("ui");
  return (
    <span>
      <span className="sr-only">{t("toast.typePrefix", { type: t(`toast.type.${type}`) })}</span>
      {message}
    </span>
  );
}

/**
 * Shows a toast. The same type and message already on screen is not repeated; any other toast on
 * screen is dismissed first, so a new toast replaces the current one.
 */
export function notify(type: ToastType, message: string): Id {
  const toastId = toastIdFor(type, message);
  if (toast.isActive(toastId)) return toastId;
  toast.dismiss();
  return toast(<ToastMessage type={type} message={message} />, { type, toastId });
}

/** notify and its shortcuts, for components. */
export function useToast() {
  return useMemo(
    () => ({
      notify,
      info: (message: string) => notify("info", message),
      success: (message: string) => notify("success", message),
      warning: (message: string) => notify("warning", message),
      error: (message: string) => notify("error", message),
      dismiss: (id?: Id) => toast.dismiss(id),
    }),
    [],
  );
}

/** The toast container with the product defaults; mount it once near the root of the page. */
export function ToastHost(props: Partial<ToastContainerProps>) {
  const { t } = useTranslation("ui");
  const hostRef = useRef<HTMLDivElement>(null);

  // react-toastify labels its progress bar in English only; give it the translated label.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const label = t("toast.timer");
    const relabel = () => {
      for (const bar of host.querySelectorAll('[role="progressbar"]')) {
        if (bar.getAttribute("aria-label") !== label) bar.setAttribute("aria-label", label);
      }
    };
    relabel();
    const observer = new MutationObserver(relabel);
    observer.observe(host, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-label"] });
    return () => observer.disconnect();
  }, [t]);

  return (
    <div ref={hostRef} className="contents">
      <ToastContainer
        {...TOAST_DEFAULTS}
        aria-label={t("toast.region")}
        icon={({ type }) => {
          const Icon = TOAST_ICONS[type as ToastType] ?? Info;
          return <Icon className="size-5" aria-hidden="true" data-toast-icon={type} />;
        }}
        closeButton={({ closeToast }) => (
          <button
            type="button"
            aria-label={t("toast.close")}
            onClick={(event) => {
              event.stopPropagation();
              closeToast(true);
            }}
            className="self-start rounded p-1 text-current opacity-90 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        )}
        {...props}
      />
    </div>
  );
}
