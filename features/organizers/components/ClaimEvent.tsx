import { BadgeCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { loginHref, pagePath } from "../../../shared/i18n/pages.ts";
import { CodeField } from "../../../shared/ui/CodeField.tsx";
import { Disclosure } from "../../../shared/ui/Disclosure.tsx";
import {
  CheckboxField,
  EmailField,
  FormError,
  FormFooter,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
  SubmitButton,
} from "../../../shared/ui/fields.tsx";
import { useApiForm } from "../../../shared/ui/form/use-api-form.ts";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { checkOrganizerBodySchema, organizerCodeBodySchema } from "../../editor/editor.contract.ts";
import type { SessionUser } from "../../identity/identity.contract.ts";
import type { CheckOrganizerResponse, EventOrganizerInfo } from "../organizer.contract.ts";

type Access = NonNullable<EventOrganizerInfo["access"]>;

const LINK_BUTTON = `${PRIMARY_BUTTON} mt-3 w-full sm:w-auto`;

/**
 * "Are you the organiser?": tick "I belong to the organisation", give an address, then type the
 * 5-digit code mailed to the event's contact (or to that address). Success makes the member an
 * organiser of the event and reveals the organiser tools.
 */
export function ClaimEvent({
  eventId,
  eventPath,
  locale,
  user,
  onGranted,
}: {
  eventId: number;
  eventPath: string;
  locale: Locale;
  user: SessionUser | null;
  onGranted: (access: Access) => void;
}) {
  const { t } = useTranslation("organizer");
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const [sent, setSent] = useState<{ email: string; sentTo: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [needsVerification, setNeedsVerification] = useState(user?.emailStatus === "unverified");

  const onError = (code: string) => {
    if (code !== "EMAIL_VERIFICATION_REQUIRED") return false;
    setNeedsVerification(true);
    return true;
  };
  const { fields, ...claim } = useApiForm({
    schema: checkOrganizerBodySchema,
    url: "/api/event/check-organizer",
    onError,
    onSuccess: (result: CheckOrganizerResponse, value) => {
      if (!result.sent) onGranted(result.access);
      else setSent({ email: value.email, sentTo: result.sentTo ?? "" });
    },
  });
  const resend = useApiForm({
    schema: checkOrganizerBodySchema,
    url: "/api/event/check-organizer",
    onError,
    onSuccess: () => setNotice(t("claim.resent")),
  });
  const { fields: codeFields, ...confirm } = useApiForm({
    schema: organizerCodeBodySchema,
    url: `/api/event/organizer/${eventId}`,
    onError,
    onSuccess: async ({ access }: { access: Access }) => {
      close();
      onGranted(access);
      await showToast("success", t("claim.granted"));
    },
  });

  const signIn = !user ? (
    <a href={loginHref(locale, eventPath)} className={LINK_BUTTON} data-testid="claim-login">
      {t("claim.login")}
    </a>
  ) : undefined;

  return (
    <Disclosure
      icon={BadgeCheck}
      heading={t("claim.heading")}
      intro={t("claim.intro")}
      openLabel={t("claim.open")}
      open={open}
      onOpenChange={setOpen}
      action={signIn}
      testId="claim-event"
    >
      {needsVerification ? (
        <VerifyFirst message={t("claim.verifyFirst")} locale={locale} />
      ) : !sent ? (
        <form key="request" {...claim.props} className="space-y-3">
          <input type="hidden" name="eventId" value={eventId} />
          <CheckboxField
            field={fields.belongs}
            label={t("claim.belongs")}
            labelClassName="flex items-start gap-2 text-ink-900 text-sm"
            inputClassName="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
            autoFocus
          />
          <EmailField field={fields.email} label={t("claim.email")} hint={t("claim.emailHint")} />
          <FormFooter form={claim} submit={t("claim.send")} cancel={t("claim.cancel")} onCancel={close} />
        </form>
      ) : (
        <>
          <form key="code" {...confirm.props} className="space-y-3">
            <p role="status" className="rounded-lg bg-emerald-50 p-3 text-emerald-900 text-sm">
              {t("claim.sentTo", { address: sent.sentTo })}
            </p>
            <CodeField field={codeFields.code} label={t("claim.code")} className="w-44" autoFocus />
            <FormError message={confirm.formError ?? resend.formError} />
            {notice && (
              <p role="status" className="text-emerald-900 text-sm">
                {notice}
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <SubmitButton pending={confirm.pending}>{t("claim.confirm")}</SubmitButton>
              {/* Sends the request form below again (a form cannot hold another one). */}
              <button type="submit" form={resend.form.id} className={SECONDARY_BUTTON} disabled={resend.pending}>
                {t("claim.resend")}
              </button>
              <button
                type="button"
                className={`${SECONDARY_BUTTON} border-transparent`}
                onClick={() => {
                  setSent(null);
                  setNotice(null);
                }}
              >
                {t("claim.restart")}
              </button>
            </div>
          </form>
          <form {...resend.props} hidden>
            <input type="hidden" name="eventId" value={eventId} />
            <input type="hidden" name="email" value={sent.email} />
            <input type="hidden" name="belongs" value="on" />
          </form>
        </>
      )}
    </Disclosure>
  );
}

/** The claim and the invitations need a verified address first. */
export function VerifyFirst({ message, locale }: { message: string; locale: Locale }) {
  const { t } = useTranslation("organizer");
  return (
    <div className="space-y-3">
      <p role="alert" className="rounded-lg bg-amber-50 p-3 text-amber-950 text-sm">
        {message}
      </p>
      <a href={pagePath("verifyEmail", locale)} className={PRIMARY_BUTTON}>
        {t("claim.verifyLink")}
      </a>
    </div>
  );
}
