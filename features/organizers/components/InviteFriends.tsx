import { Plus, UserPlus, X } from "lucide-react";
import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { Disclosure } from "../../../shared/ui/Disclosure.tsx";
import { FieldError, FormError, INPUT_CLASS, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { useApiForm } from "../../../shared/ui/use-api-form.ts";
import type { SessionUser } from "../../accounts/accounts.contract.ts";
import { INVITATION_MAX_FRIENDS, INVITATION_MESSAGE_MAX, invitationBodySchema } from "../organizer.contract.ts";
import { loginHref } from "./ClaimEvent.tsx";

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
  // Stable keys for the address rows, so removing one keeps what was typed in the others.
  const nextKey = useRef(1);
  const [rows, setRows] = useState<number[]>([0]);
  const [needsVerification, setNeedsVerification] = useState(user?.emailStatus === "unverified");
  const baseId = useId();
  const form = useApiForm<{ ok: true; sent: number }>({
    url: "/api/send-invitation",
    schema: invitationBodySchema,
    onError: (code) => {
      if (code !== "EMAIL_VERIFICATION_REQUIRED") return false;
      setNeedsVerification(true);
      return true;
    },
    onSuccess: async ({ sent }) => {
      setOpen(false);
      setRows([0]);
      await showToast("success", t("invite.sent", { count: sent }));
    },
  });

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
        <div className="space-y-3">
          <p role="alert" className="rounded-lg bg-amber-50 p-3 text-amber-950 text-sm">
            {t("invite.verifyFirst")}
          </p>
          <a href={pagePath("verifyEmail", locale)} className={PRIMARY_BUTTON}>
            {t("claim.verifyLink")}
          </a>
        </div>
      ) : (
        <form
          method="post"
          noValidate
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            const emails = data.getAll("emails").map((v) => String(v).trim());
            void form.submit({ eventId, emails, message: String(data.get("message") ?? "") });
          }}
        >
          <ul className="space-y-3">
            {rows.map((key, index) => {
              const id = `${baseId}-friend-${key}`;
              const error = form.errors[`emails.${index}`] ?? (index === 0 ? form.errors.emails : undefined);
              return (
                <li key={key}>
                  <label htmlFor={id} className="mb-1 block font-medium text-ink-900 text-sm">
                    {t("invite.friend", { number: index + 1 })}
                  </label>
                  <div className="flex gap-2">
                    <input
                      id={id}
                      name="emails"
                      type="email"
                      inputMode="email"
                      autoComplete="off"
                      className={INPUT_CLASS}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                      // biome-ignore lint/a11y/noAutofocus: a field the member just asked for.
                      autoFocus={index === rows.length - 1}
                    />
                    {rows.length > 1 && (
                      <button
                        type="button"
                        className={`${SECONDARY_BUTTON} shrink-0 px-3`}
                        onClick={() => {
                          setRows(rows.filter((k) => k !== key));
                          form.setErrors({});
                        }}
                      >
                        <X className="h-4 w-4" aria-hidden="true" />
                        <span className="sr-only">{t("invite.remove", { number: index + 1 })}</span>
                      </button>
                    )}
                  </div>
                  <FieldError id={`${id}-error`} message={error} />
                </li>
              );
            })}
          </ul>
          {rows.length < INVITATION_MAX_FRIENDS ? (
            <button
              type="button"
              className={`${SECONDARY_BUTTON} px-3 py-1.5 text-sm`}
              onClick={() => {
                setRows([...rows, nextKey.current++]);
              }}
            >
              <Plus className="h-4 w-4" aria-hidden="true" />
              {t("invite.add")}
            </button>
          ) : (
            <p className="text-ink-500 text-sm">{t("invite.max", { count: INVITATION_MAX_FRIENDS })}</p>
          )}
          <div>
            <label htmlFor={`${baseId}-message`} className="mb-1 block font-medium text-ink-900 text-sm">
              {t("invite.message")}
            </label>
            <textarea
              id={`${baseId}-message`}
              name="message"
              rows={3}
              maxLength={INVITATION_MESSAGE_MAX}
              className={INPUT_CLASS}
              aria-invalid={form.errors.message ? true : undefined}
              aria-describedby={form.errors.message ? `${baseId}-message-error` : undefined}
            />
            <FieldError id={`${baseId}-message-error`} message={form.errors.message} />
          </div>
          <FormError message={form.formError} />
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={PRIMARY_BUTTON} disabled={form.pending}>
              {t("invite.send")}
            </button>
            <button type="button" className={SECONDARY_BUTTON} onClick={() => setOpen(false)}>
              {t("invite.cancel")}
            </button>
          </div>
        </form>
      )}
    </Disclosure>
  );
}
