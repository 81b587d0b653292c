import { MessageSquare } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Disclosure } from "../../../shared/ui/Disclosure.tsx";
import {
  FieldError,
  FormError,
  INPUT_CLASS,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
  TextField,
} from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { useApiForm } from "../../../shared/ui/use-api-form.ts";
import type { SessionUser } from "../../accounts/accounts.contract.ts";
import {
  CONTACT_MESSAGE_MAX,
  CONTACT_MESSAGE_MIN,
  contactOrganizerBodySchema,
  SENDER_NAME_MAX,
} from "../organizer.contract.ts";

/**
 * "Contact the organiser": anyone writes to the event's organiser through us; the organiser's
 * address is never shown, their reply goes straight to the sender.
 */
export function ContactOrganizer({ eventId, user }: { eventId: number; user: SessionUser | null }) {
  const { t } = useTranslation("organizer");
  const [open, setOpen] = useState(false);
  const [length, setLength] = useState(0);
  const messageId = useId();
  const trapId = useId();
  const form = useApiForm({
    url: "/api/send-contact-organizer",
    schema: contactOrganizerBodySchema,
    onSuccess: async () => {
      setOpen(false);
      setLength(0);
      await showToast("success", t("contact.sent"));
    },
  });
  const limits = { min: CONTACT_MESSAGE_MIN, max: CONTACT_MESSAGE_MAX };
  // The catalogue's "invalid field" says nothing useful about a length: say the rule.
  const messageError = form.errors.message ? t("contact.messageLength", limits) : undefined;

  return (
    <Disclosure
      icon={MessageSquare}
      heading={t("contact.heading")}
      intro={t("contact.intro")}
      openLabel={t("contact.open")}
      open={open}
      onOpenChange={setOpen}
      testId="contact-organizer"
    >
      <form
        method="post"
        noValidate
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const website = String(data.get("website") ?? "");
          void form.submit({
            eventId,
            name: String(data.get("name") ?? ""),
            email: String(data.get("email") ?? ""),
            message: String(data.get("message") ?? ""),
            ...(website ? { website } : {}),
          });
        }}
      >
        <TextField
          name="name"
          autoComplete="name"
          maxLength={SENDER_NAME_MAX}
          defaultValue={user?.displayName ?? ""}
          label={t("contact.name")}
          error={form.errors.name}
          autoFocus
        />
        <TextField
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          label={t("contact.email")}
          hint={t("contact.emailHint")}
          error={form.errors.email}
        />
        <div>
          <label htmlFor={messageId} className="mb-1 block font-medium text-ink-900 text-sm">
            {t("contact.message")}
          </label>
          <textarea
            id={messageId}
            name="message"
            rows={5}
            maxLength={CONTACT_MESSAGE_MAX}
            className={INPUT_CLASS}
            aria-invalid={messageError ? true : undefined}
            aria-describedby={`${messageId}-hint${messageError ? ` ${messageId}-error` : ""}`}
            onChange={(event) => setLength(event.currentTarget.value.trim().length)}
          />
          <p id={`${messageId}-hint`} className="mt-1 flex justify-between gap-2 text-ink-500 text-sm">
            <span>{t("contact.messageHint", limits)}</span>
            <span aria-hidden="true">{t("contact.counter", { count: length, max: CONTACT_MESSAGE_MAX })}</span>
          </p>
          <FieldError id={`${messageId}-error`} message={messageError} />
        </div>
        {/* A trap for robots: hidden from people and from assistive technologies. */}
        <div className="hidden" aria-hidden="true">
          <label htmlFor={trapId}>{t("contact.trap")}</label>
          <input id={trapId} type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <FormError message={form.formError} />
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={PRIMARY_BUTTON} disabled={form.pending}>
            {t("contact.send")}
          </button>
          <button type="button" className={SECONDARY_BUTTON} onClick={() => setOpen(false)}>
            {t("contact.cancel")}
          </button>
        </div>
      </form>
    </Disclosure>
  );
}
