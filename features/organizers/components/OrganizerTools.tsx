import { Ban, CalendarCheck, CalendarClock, CircleCheck, Pencil, RotateCcw, Trophy, Wrench } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { z } from "zod";
import { apiFetch } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { PAGES, type PageId, pagePath } from "../../../shared/i18n/pages.ts";
import { DateField } from "../../../shared/ui/DateField.tsx";
import { Dialog } from "../../../shared/ui/Dialog.tsx";
import { CARD } from "../../../shared/ui/Disclosure.tsx";
import {
  CheckboxField,
  FieldError,
  FormError,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
  SubmitButton,
} from "../../../shared/ui/fields.tsx";
import { apiErrorsOf, emptyBody } from "../../../shared/ui/form/submission.ts";
import { useApiForm } from "../../../shared/ui/form/use-api-form.ts";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { type EventStatusType, eventStatusBodySchema } from "../../editor/editor.contract.ts";
import type { EventDetail } from "../../events/event-detail.contract.ts";
import type { EventOrganizerInfo } from "../organizer.contract.ts";

type Access = Exclude<EventOrganizerInfo["access"], "member" | null>;
type DialogType = "postpone" | "confirm-date" | "cancel";

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
  const { t: tImport } = useTranslation("results-import");
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!justGranted) return;
    headingRef.current?.scrollIntoView({ block: "center" });
    headingRef.current?.focus({ preventScroll: true });
  }, [justGranted]);
  const revalidator = useRevalidator();
  const [dialog, setDialog] = useState<DialogType | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => setDialog(null);
  const editHref = eventEditHref(locale, event.id);

  /** A change went through: the page reloads its data and says so. */
  async function done(type: EventStatusType) {
    setDialog(null);
    await revalidator.revalidate();
    await showToast("success", t(`tools.done.${type}`));
  }

  /** Buttons outside a dialog report their errors in a toast. */
  async function quick(type: EventStatusType) {
    setBusy(true);
    try {
      const response = await apiFetch(statusUrl(event.id, type), { method: "POST", body: "{}" });
      if (response.ok) await done(type);
      else {
        const { formErrors, fieldErrors } = apiErrorsOf(await response.json().catch(() => null), locale);
        await showToast("error", formErrors?.[0] ?? Object.values(fieldErrors ?? {})[0]?.[0] ?? "");
      }
    } finally {
      setBusy(false);
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
        <a href={pagePath("resultsImport", locale, { id: event.id })} className={`${SECONDARY_BUTTON} ${SMALL}`}>
          <Trophy className={ICON} aria-hidden="true" />
          {tImport("tools.link")}
        </a>
        {event.checkStatus === "to_check" && (
          <button
            type="button"
            className={`${SECONDARY_BUTTON} ${SMALL}`}
            disabled={busy}
            onClick={() => quick("check")}
          >
            <CircleCheck className={ICON} aria-hidden="true" />
            {t("tools.check")}
          </button>
        )}
        {!event.dateConfirmed && !event.cancelled && (
          <button type="button" className={`${SECONDARY_BUTTON} ${SMALL}`} onClick={() => setDialog("confirm-date")}>
            <CalendarCheck className={ICON} aria-hidden="true" />
            {t("tools.confirmDate")}
          </button>
        )}
        <button type="button" className={`${SECONDARY_BUTTON} ${SMALL}`} onClick={() => setDialog("postpone")}>
          <CalendarClock className={ICON} aria-hidden="true" />
          {t("tools.postpone")}
        </button>
        {event.cancelled ? (
          <button
            type="button"
            className={`${SECONDARY_BUTTON} ${SMALL}`}
            disabled={busy}
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

      {dialog && (
        <StatusDialog
          type={dialog}
          eventId={event.id}
          multiDay={event.endDate > event.startDate}
          today={today}
          onClose={close}
          onDone={done}
        />
      )}
    </section>
  );
}

const statusUrl = (eventId: number, type: EventStatusType) => `/api/event/${eventId}/status/${type}`;

/** The postponement's new dates (the end only for an event of several days). */
const postponeSchema = eventStatusBodySchema.extend({ startDate: z.string("required").min(1, "required") });
/** Confirming the date takes a ticked box; the API only hears the request. */
const confirmDateSchema = z.object({ certified: z.literal(true, "certify") });

/** The dialog of a change that asks something first: new dates, a certification, a confirmation. */
function StatusDialog({
  type,
  eventId,
  multiDay,
  today,
  onClose,
  onDone,
}: {
  type: DialogType;
  eventId: number;
  multiDay: boolean;
  today: string;
  onClose: () => void;
  onDone: (type: EventStatusType) => Promise<void>;
}) {
  const { t } = useTranslation("organizer");
  const { fields, ...form } = useApiForm({
    schema: type === "postpone" ? postponeSchema : type === "confirm-date" ? confirmDateSchema : emptyBody,
    url: statusUrl(eventId, type),
    messages: {
      required: t("tools.postponeDialog.required"),
      certify: t("tools.confirmDialog.certifyRequired"),
    },
    onSuccess: () => onDone(type),
  });
  const [startDate, setStartDate] = useState<string | null>(null);
  const error = (name: string) => form.errorOf(name);
  const titles = { postpone: "postponeDialog", "confirm-date": "confirmDialog", cancel: "cancelDialog" } as const;
  const texts = titles[type];
  return (
    <Dialog onClose={onClose} title={t(`tools.${texts}.title`)} closeLabel={t("tools.close")} testId={`${type}-dialog`}>
      <form {...form.props} className="space-y-4">
        {type === "postpone" && (
          <>
            <p>{t("tools.postponeDialog.intro")}</p>
            <div>
              <DateField
                id="postpone-start"
                name="startDate"
                label={t("tools.postponeDialog.startDate")}
                onChange={setStartDate}
                min={today}
              />
              <FieldError id="postpone-start-error" message={error("startDate")} />
            </div>
            {multiDay && (
              <div>
                <DateField
                  id="postpone-end"
                  name="endDate"
                  label={t("tools.postponeDialog.endDate")}
                  min={startDate ?? today}
                />
                <FieldError id="postpone-end-error" message={error("endDate")} />
              </div>
            )}
          </>
        )}
        {type === "confirm-date" && (
          <CheckboxField
            name="certified"
            error={error("certified")}
            label={t("tools.confirmDialog.certify")}
            labelClassName="flex items-start gap-2 text-ink-900 text-sm"
            inputClassName="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
          />
        )}
        {type === "cancel" && <p>{t("tools.cancelDialog.intro")}</p>}
        <FormError message={form.formError} />
        <div className="flex flex-wrap gap-2">
          <SubmitButton danger={type === "cancel"} pending={form.pending}>
            {t(`tools.${texts}.submit`)}
          </SubmitButton>
          {type === "cancel" && (
            <button type="button" className={SECONDARY_BUTTON} onClick={onClose}>
              {t("tools.cancelDialog.keep")}
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );
}
