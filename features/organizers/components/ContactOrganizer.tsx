import { MessageSquare } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Disclosure } from "../../../shared/ui/Disclosure.tsx";
import { EmailField, FormFooter, TextAreaField, TextField } from "../../../shared/ui/fields.tsx";
import type { FormResult } from "../../../shared/ui/form/submission.ts";
import { useApiForm } from "../../../shared/ui/form/use-api-form.ts";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { SessionUser } from "../../identity/identity.contract.ts";
import { CONTACT_ANCHOR } from "../contact-anchor.ts";
import {
  CONTACT_MESSAGE_MAX,
  CONTACT_MESSAGE_MIN,
  contactOrganizerBodySchema,
  SENDER_NAME_MAX,
} from "../organizer.contract.ts";

/** Where the page's form stands after a visit without JavaScript (?open=contact, or a posted message). */
export type ContactNoScript = { open?: boolean; result?: FormResult; sent?: boolean };

/**
 * "Contact the organiser": anyone writes to the event's organiser through us; the organiser's
 * address is never shown, their reply goes straight to the sender. Works without JavaScript: the
 * card opens through the address, the form posts to the event page's action.
 */
export function ContactOrganizer({
  eventId,
  user,
  noScript = {},
}: {
  eventId: number;
  user: SessionUser | null;
  noScript?: ContactNoScript;
}) {
  const { t } = useTranslation("organizer");
  const [open, setOpen] = useState(Boolean(noScript.open || (noScript.result && !noScript.sent)));
  const close = () => setOpen(false);
  const [sent, setSent] = useState(Boolean(noScript.sent));
  const [length, setLength] = useState(0);
  const { fields, ...form } = useApiForm({
    schema: contactOrganizerBodySchema,
    url: "/api/send-contact-organizer",
    resetOnSuccess: true,
    lastResult: noScript.sent ? undefined : noScript.result,
    onSuccess: async () => {
      close();
      setLength(0);
      await showToast("success", t("contact.sent"));
    },
  });
  const limits = { min: CONTACT_MESSAGE_MIN, max: CONTACT_MESSAGE_MAX };

  return (
    <Disclosure
      icon={MessageSquare}
      heading={t("contact.heading")}
      intro={t("contact.intro")}
      status={sent ? t("contact.sent") : undefined}
      openLabel={t("contact.open")}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setSent(false);
      }}
      anchor={CONTACT_ANCHOR}
      testId="contact-organizer"
    >
      <form {...form.props} className="space-y-3">
        <input type="hidden" name="eventId" value={eventId} />
        <TextField
          field={fields.name}
          autoComplete="name"
          maxLength={SENDER_NAME_MAX}
          defaultValue={fields.name.defaultValue ?? user?.displayName ?? ""}
          label={t("contact.name")}
          autoFocus
        />
        <EmailField field={fields.email} label={t("contact.email")} hint={t("contact.emailHint")} />
        <TextAreaField
          field={fields.message}
          label={t("contact.message")}
          rows={5}
          maxLength={CONTACT_MESSAGE_MAX}
          // The catalogue's "invalid field" says nothing useful about a length: say the rule.
          error={fields.message.errors ? t("contact.messageLength", limits) : undefined}
          onChange={(event) => setLength(event.currentTarget.value.trim().length)}
          hintClassName="mt-1 flex justify-between gap-2 text-ink-500 text-sm"
          hint={
            <>
              <span>{t("contact.messageHint", limits)}</span>
              <span aria-hidden="true">{t("contact.counter", { count: length, max: CONTACT_MESSAGE_MAX })}</span>
            </>
          }
        />
        {/* A trap for robots: hidden from people and from assistive technologies. */}
        <div className="hidden" aria-hidden="true">
          <TextField field={fields.website} label={t("contact.trap")} tabIndex={-1} autoComplete="off" />
        </div>
        <FormFooter form={form} submit={t("contact.send")} cancel={t("contact.cancel")} onCancel={close} />
      </form>
    </Disclosure>
  );
}
