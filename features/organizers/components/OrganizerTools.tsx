import { Ban, CalendarCheck, CalendarClock, CircleCheck, Pencil, RotateCcw, Wrench } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { apiFetch } from "../../../shared/api-client.ts";
import { apiErrorBodySchema } from "../../../shared/api-error.ts";
import type { Locale } from "../../../shared/constants.ts";
import { PAGES, type PageId, pagePath } from "../../../shared/i18n/pages.ts";
import { DateField } from "../../../shared/ui/DateField.tsx";
import { CARD } from "../../../shared/ui/Disclosure.tsx";
import { DANGER_BUTTON, FieldError, FormError, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { EventStatusType } from "../../editor/editor.contract.ts";
import { Dialog } from "../../events/components/Dialog.tsx";
import type { EventDetail } from "../../events/event-detail.contract.ts";
import type { EventOrganizerInfo } from "../organizer.contract.ts";

type Access = Exclude<EventOrganizerInfo["access"], "member" | null>;
type Result = { ok: true } | { ok: false; message: string; field?: string };

/** The editor's page, once it exists in this build (it is added separately). */
export function eventEditHref(locale: Locale, id: number): string | null {
  return Object.hasOwn(PAGES, "eventEdit") ? pagePath("eventEdit" as PageId, locale, { id }) : null;
}

const SMALL = "px-3 py-2 text-sm";
const ICON = "h-4 w-4 shrink-0";
const DONE =
  "inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-2.5 py-1 text-emerald-900 ring-1 ring-emerald-200 ring-inset";

/**
 * What an event's owner, verified organiser or an admin can do from its page: open the editor,
 * mark the information checked, confirm the date, postpone, cancel or reinstate. Each change is
 * POST /api/event/{id}/status/{type}; the page then reloads its data.
 */
export function OrganizerTools({
  event,
  access,
  locale,
  today,
  justGranted = false,
}: {
  event: EventDetail;
  access: Access;
  locale: Locale;
  /** Today in Paris: an event is postponed to a day still to come. */
  today: string;
  /** Rights were just granted further down the page: bring the tools into view. */
  justGranted?: boolean;
}) {
  const { t } = useTranslation("organizer");
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!justGranted) return;
    headingRef.current?.scrollIntoView({ block: "center" });
    headingRef.current?.focus({ preventScroll: true });
  }, [justGranted]);
  const revalidator = useRevalidator();
  const [dialog, setDialog] = useState<"postpone" | "confirm-date" | "cancel" | null>(null);
  const [busy, setBusy] = useState<EventStatusType | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [startDate, setStartDate] = useState<string | null>(null);
  const [endDate, setEndDate] = useState<string | null>(null);
  const [certified, setCertified] = useState(false);
  const multiDay = event.endDate > event.startDate;
  const editHref = eventEditHref(locale, event.id);

  function close() {
    setDialog(null);
    setError(null);
  }

  async function change(type: EventStatusType, body: Record<string, unknown> = {}): Promise<Result> {
    setBusy(type);
    setError(null);
    try {
      const response = await apiFetch(`/api/event/${event.id}/status/${type}`, {
        method: "POST",
        body: JSON.stringify(body),
      });
      if (!response.ok) {
        const parsed = apiErrorBodySchema.safeParse(await response.json().catch(() => null));
        const result = {
          ok: false as const,
          message: parsed.data?.error.message ?? t("common:errors.generic"),
          field: parsed.data?.error.field,
        };
        setError(result);
        return result;
      }
      close();
      await revalidator.revalidate();
      await showToast("success", t(`tools.done.${type}`));
      return { ok: true };
    } catch {
      const result = { ok: false as const, message: t("common:errors.generic") };
      setError(result);
      return result;
    } finally {
      setBusy(null);
    }
  }

  /** Buttons outside a dialog report their errors in a toast. */
  async function quick(type: EventStatusType) {
    const result = await change(type);
    if (!result.ok) {
      setError(null);
      await showToast("error", result.message);
    }
  }

  const role = t(`tools.role.${access}`);
  return (
    <section
      aria-labelledby="organizer-tools-heading"
      className={`${CARD} border-brand-100 bg-brand-50/40`}
      data-testid="organizer-tools"
    >
      <h2
        id="organizer-tools-heading"
        ref={headingRef}
        tabIndex={-1}
        className="flex items-center gap-2 font-bold text-ink-900 text-lg focus:outline-none"
      >
        <Wrench className="h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
        {t("tools.heading")}
      </h2>
      <p className="mt-1 text-ink-700 text-sm">{role}</p>
      {(event.checkStatus === "checked" || event.dateConfirmed) && (
        <ul className="mt-2 flex flex-wrap gap-2 text-sm">
          {event.checkStatus === "checked" && (
            <li className={DONE}>
              <CircleCheck className={ICON} aria-hidden="true" />
              {t("tools.checked")}
            </li>
          )}
          {event.dateConfirmed && (
            <li className={DONE}>
              <CalendarCheck className={ICON} aria-hidden="true" />
              {t("tools.dateConfirmed")}
            </li>
          )}
        </ul>
      )}
      <div className="mt-3 grid grid-cols-1 gap-2 min-[340px]:grid-cols-2 sm:flex sm:flex-wrap">
        {editHref && (
          <a href={editHref} className={`${PRIMARY_BUTTON} ${SMALL} min-[340px]:col-span-2`}>
            <Pencil className={ICON} aria-hidden="true" />
            {t("tools.edit")}
          </a>
        )}
        {event.checkStatus === "to_check" && (
          <button
            type="button"
            className={`${SECONDARY_BUTTON} ${SMALL}`}
            disabled={busy !== null}
            onClick={() => quick("check")}
          >
            <CircleCheck className={ICON} aria-hidden="true" />
            {t("tools.check")}
          </button>
        )}
        {!event.dateConfirmed && !event.cancelled && (
          <button
            type="button"
            className={`${SECONDARY_BUTTON} ${SMALL}`}
            onClick={() => {
              setCertified(false);
              setDialog("confirm-date");
            }}
          >
            <CalendarCheck className={ICON} aria-hidden="true" />
            {t("tools.confirmDate")}
          </button>
        )}
        <button
          type="button"
          className={`${SECONDARY_BUTTON} ${SMALL}`}
          onClick={() => {
            setStartDate(null);
            setEndDate(null);
            setDialog("postpone");
          }}
        >
          <CalendarClock className={ICON} aria-hidden="true" />
          {t("tools.postpone")}
        </button>
        {event.cancelled ? (
          <button
            type="button"
            className={`${SECONDARY_BUTTON} ${SMALL}`}
            disabled={busy !== null}
            onClick={() => quick("uncancel")}
          >
            <RotateCcw className={ICON} aria-hidden="true" />
            {t("tools.uncancel")}
          </button>
        ) : (
          <button
            type="button"
            className={`${SECONDARY_BUTTON} ${SMALL} text-red-800`}
            onClick={() => setDialog("cancel")}
          >
            <Ban className={ICON} aria-hidden="true" />
            {t("tools.cancelEvent")}
          </button>
        )}
      </div>

      <Dialog
        open={dialog === "postpone"}
        onClose={close}
        title={t("tools.postponeDialog.title")}
        closeLabel={t("tools.close")}
        testId="postpone-dialog"
      >
        <form
          method="post"
          noValidate
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (!startDate) {
              setError({ message: t("tools.postponeDialog.required"), field: "startDate" });
              return;
            }
            // A one-day event stays one day; the server keeps a longer one's length when no end is given.
            void change("postpone", { startDate, ...(multiDay && endDate ? { endDate } : {}) });
          }}
        >
          <p className="text-ink-700 text-sm">{t("tools.postponeDialog.intro")}</p>
          <div>
            <DateField
              id="postpone-start"
              label={t("tools.postponeDialog.startDate")}
              value={startDate}
              onChange={setStartDate}
              min={today}
            />
            <FieldError id="postpone-start-error" message={error?.field === "startDate" ? error.message : undefined} />
          </div>
          {multiDay && (
            <div>
              <DateField
                id="postpone-end"
                label={t("tools.postponeDialog.endDate")}
                value={endDate}
                onChange={setEndDate}
                min={startDate ?? today}
              />
              <FieldError id="postpone-end-error" message={error?.field === "endDate" ? error.message : undefined} />
            </div>
          )}
          <FormError message={error && !error.field ? error.message : null} />
          <button type="submit" className={PRIMARY_BUTTON} disabled={busy !== null}>
            {t("tools.postponeDialog.submit")}
          </button>
        </form>
      </Dialog>

      <Dialog
        open={dialog === "confirm-date"}
        onClose={close}
        title={t("tools.confirmDialog.title")}
        closeLabel={t("tools.close")}
        testId="confirm-date-dialog"
      >
        <form
          method="post"
          noValidate
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (!certified) {
              setError({ message: t("tools.confirmDialog.certifyRequired"), field: "certified" });
              return;
            }
            void change("confirm-date");
          }}
        >
          <div>
            <label className="flex items-start gap-2 text-ink-900 text-sm">
              <input
                type="checkbox"
                checked={certified}
                onChange={(e) => setCertified(e.currentTarget.checked)}
                className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
                aria-invalid={error?.field === "certified" ? true : undefined}
                aria-describedby={error?.field === "certified" ? "certify-error" : undefined}
              />
              <span>{t("tools.confirmDialog.certify")}</span>
            </label>
            <FieldError id="certify-error" message={error?.field === "certified" ? error.message : undefined} />
          </div>
          <FormError message={error && error.field !== "certified" ? error.message : null} />
          <button type="submit" className={PRIMARY_BUTTON} disabled={busy !== null}>
            {t("tools.confirmDialog.submit")}
          </button>
        </form>
      </Dialog>

      <Dialog
        open={dialog === "cancel"}
        onClose={close}
        title={t("tools.cancelDialog.title")}
        closeLabel={t("tools.close")}
        testId="cancel-dialog"
      >
        <p className="text-ink-700 text-sm">{t("tools.cancelDialog.intro")}</p>
        <FormError message={error?.message ?? null} />
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="button" className={DANGER_BUTTON} disabled={busy !== null} onClick={() => change("cancel")}>
            {t("tools.cancelDialog.submit")}
          </button>
          <button type="button" className={SECONDARY_BUTTON} onClick={close}>
            {t("tools.cancelDialog.keep")}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
