import { Plus, UserPlus, X } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { loginHref } from "../../../shared/i18n/pages.ts";
import { Disclosure } from "../../../shared/ui/Disclosure.tsx";
import {
  FieldFrame,
  FormFooter,
  INPUT_CLASS,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
  TextAreaField,
} from "../../../shared/ui/fields.tsx";
import { useApiForm } from "../../../shared/ui/form/use-api-form.ts";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { SessionUser } from "../../identity/identity.contract.ts";
import { INVITATION_MAX_FRIENDS, INVITATION_MESSAGE_MAX, invitationBodySchema } from "../organizer.contract.ts";
import { VerifyFirst } from "./ClaimEvent.tsx";

/** "Invite a friend": a signed-in member with a verified address mails the event to up to five friends. */
export function InviteFriends({
  eventId,
  eventPath,
  locale,
  user,
}: {
  eventId: number;
  eventPath: string;
  locale: Locale;
  user: SessionUser | null;
}) {
  const { t } = useTranslation("organizer");
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const [needsVerification, setNeedsVerification] = useState(user?.emailStatus === "unverified");
  const { fields, ...form } = useApiForm({
    schema: invitationBodySchema,
    url: "/api/send-invitation",
    defaultValue: { emails: [""] },
    resetOnSuccess: true,
    onError: (code) => {
      if (code !== "EMAIL_VERIFICATION_REQUIRED") return false;
      setNeedsVerification(true);
      return true;
    },
    onSuccess: async ({ sent }: { sent: number }) => {
      close();
      await showToast("success", t("invite.sent", { count: sent }));
    },
  });
  // One row per address; the rows keep their keys (and what was typed) when one is removed.
  const rows = fields.emails.getFieldList();

  const signIn = !user ? (
    <a href={loginHref(locale, eventPath)} className={`${PRIMARY_BUTTON} mt-3 w-full sm:w-auto`}>
      {t("invite.login")}
    </a>
  ) : undefined;

  return (
    <Disclosure
      icon={UserPlus}
      heading={t("invite.heading")}
      intro={t("invite.intro")}
      openLabel={t("invite.open")}
      open={open}
      onOpenChange={setOpen}
      action={signIn}
      testId="invite-friends"
    >
      {needsVerification ? (
        <VerifyFirst message={t("invite.verifyFirst")} locale={locale} />
      ) : (
        <form {...form.props} className="space-y-3">
          <input type="hidden" name="eventId" value={eventId} />
          <ul className="space-y-3">
            {rows.map((row, index) => (
              <li key={row.key}>
                <FieldFrame
                  id={row.id}
                  label={t("invite.friend", { number: index + 1 })}
                  // A list with no address at all is told on its first row.
                  error={row.errors?.[0] ?? (index === 0 ? fields.emails.errors?.[0] : undefined)}
                >
                  {(control) => (
                    <div className="flex gap-2">
                      <input
                        {...control}
                        name={row.name}
                        defaultValue={row.defaultValue}
                        type="email"
                        inputMode="email"
                        autoComplete="off"
                        className={INPUT_CLASS}
                        // biome-ignore lint/a11y/noAutofocus: a field the member just asked for.
                        autoFocus={index === rows.length - 1}
                      />
                      {rows.length > 1 && (
                        <button
                          type="button"
                          className={`${SECONDARY_BUTTON} shrink-0 px-3`}
                          onClick={() => form.form.remove({ name: fields.emails.name, index })}
                        >
                          <X className="h-4 w-4" aria-hidden="true" />
                          <span className="sr-only">{t("invite.remove", { number: index + 1 })}</span>
                        </button>
                      )}
                    </div>
                  )}
                </FieldFrame>
              </li>
            ))}
          </ul>
          {rows.length < INVITATION_MAX_FRIENDS ? (
            <button
              type="button"
              className={`${SECONDARY_BUTTON} px-3 py-1.5 text-sm`}
              onClick={() => form.form.insert({ name: fields.emails.name, defaultValue: "" })}
            >
              <Plus className="h-4 w-4" aria-hidden="true" />
              {t("invite.add")}
            </button>
          ) : (
            <p className="text-ink-500 text-sm">{t("invite.max", { count: INVITATION_MAX_FRIENDS })}</p>
          )}
          <TextAreaField
            field={fields.message}
            label={t("invite.message")}
            rows={3}
            maxLength={INVITATION_MESSAGE_MAX}
          />
          <FormFooter form={form} submit={t("invite.send")} cancel={t("invite.cancel")} onCancel={close} />
        </form>
      )}
    </Disclosure>
  );
}
