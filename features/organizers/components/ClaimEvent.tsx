import { BadgeCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import { apiErrorBodySchema } from "../../../shared/api-error.ts";
import { type Locale, VERIFICATION_CODE_LENGTH } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { Disclosure } from "../../../shared/ui/Disclosure.tsx";
import { FieldError, FormError, PRIMARY_BUTTON, SECONDARY_BUTTON, TextField } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { useApiForm } from "../../../shared/ui/use-api-form.ts";
import type { SessionUser } from "../../accounts/accounts.contract.ts";
import { checkOrganizerBodySchema, organizerCodeBodySchema } from "../../editor/editor.contract.ts";
import type { CheckOrganizerResponse, EventOrganizerInfo } from "../organizer.contract.ts";

type Access = NonNullable<EventOrganizerInfo["access"]>;

/** Where a visitor signs in before coming back to this event. */
export function loginHref(locale: Locale, back: string): string {
  return `${pagePath("login", locale)}?next=${encodeURIComponent(back)}`;
}

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
  const [sent, setSent] = useState<{ email: string; sentTo: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const [needsVerification, setNeedsVerification] = useState(user?.emailStatus === "unverified");

  const onError = (code: string) => {
    if (code !== "EMAIL_VERIFICATION_REQUIRED") return false;
    setNeedsVerification(true);
    return true;
  };
  const claim = useApiForm<CheckOrganizerResponse>({
    url: "/api/event/check-organizer",
    schema: checkOrganizerBodySchema,
    onError,
  });
  const confirm = useApiForm<{ access: Access }>({
    url: `/api/event/organizer/${eventId}`,
    schema: organizerCodeBodySchema,
    onError,
    onSuccess: async ({ access }) => {
      setOpen(false);
      onGranted(access);
      await showToast("success", t("claim.granted"));
    },
  });

  async function requestCode(email: string, belongs: boolean) {
    const result = await claim.submit({ eventId, email, belongs });
    if (!result) return;
    if (!result.sent) {
      onGranted(result.access);
      return;
    }
    setSent({ email, sentTo: result.sentTo ?? "" });
  }

  async function resend() {
    if (!sent) return;
    setResending(true);
    setNotice(null);
    setResendError(null);
    try {
      const response = await apiFetch("/api/event/check-organizer", {
        method: "POST",
        body: JSON.stringify({ eventId, email: sent.email, belongs: true }),
      });
      const body = await response.json().catch(() => null);
      if (response.ok) setNotice(t("claim.resent"));
      else setResendError(apiErrorBodySchema.safeParse(body).data?.error.message ?? null);
    } finally {
      setResending(false);
    }
  }

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
        <div className="space-y-3">
          <p role="alert" className="rounded-lg bg-amber-50 p-3 text-amber-950 text-sm">
            {t("claim.verifyFirst")}
          </p>
          <a href={pagePath("verifyEmail", locale)} className={PRIMARY_BUTTON}>
            {t("claim.verifyLink")}
          </a>
        </div>
      ) : !sent ? (
        <form
          key="request"
          method="post"
          noValidate
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            void requestCode(String(data.get("email") ?? ""), data.get("belongs") === "on");
          }}
        >
          <div>
            <label className="flex items-start gap-2 text-ink-900 text-sm">
              <input
                type="checkbox"
                name="belongs"
                className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
                aria-invalid={claim.errors.belongs ? true : undefined}
                aria-describedby={claim.errors.belongs ? "claim-belongs-error" : undefined}
                // biome-ignore lint/a11y/noAutofocus: the panel was just opened on demand; focus goes into it.
                autoFocus
              />
              <span>{t("claim.belongs")}</span>
            </label>
            <FieldError id="claim-belongs-error" message={claim.errors.belongs} />
          </div>
          <TextField
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            label={t("claim.email")}
            hint={t("claim.emailHint")}
            error={claim.errors.email}
          />
          <FormError message={claim.formError} />
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={PRIMARY_BUTTON} disabled={claim.pending}>
              {t("claim.send")}
            </button>
            <button type="button" className={SECONDARY_BUTTON} onClick={() => setOpen(false)}>
              {t("claim.cancel")}
            </button>
          </div>
        </form>
      ) : (
        <form
          key="code"
          method="post"
          noValidate
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            void confirm.submit({ code: String(new FormData(event.currentTarget).get("code") ?? "") });
          }}
        >
          <p role="status" className="rounded-lg bg-emerald-50 p-3 text-emerald-900 text-sm">
            {t("claim.sentTo", { address: sent.sentTo })}
          </p>
          <TextField
            name="code"
            label={t("claim.code")}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={VERIFICATION_CODE_LENGTH}
            className="w-44"
            style={{ letterSpacing: "0.4em", fontVariantNumeric: "tabular-nums" }}
            error={confirm.errors.code}
            autoFocus
          />
          <FormError message={confirm.formError ?? resendError} />
          {notice && (
            <p role="status" className="text-emerald-900 text-sm">
              {notice}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={PRIMARY_BUTTON} disabled={confirm.pending}>
              {t("claim.confirm")}
            </button>
            <button type="button" className={SECONDARY_BUTTON} onClick={resend} disabled={resending}>
              {t("claim.resend")}
            </button>
            <button
              type="button"
              className={`${SECONDARY_BUTTON} border-transparent`}
              onClick={() => {
                setSent(null);
                setNotice(null);
                setResendError(null);
              }}
            >
              {t("claim.restart")}
            </button>
          </div>
        </form>
      )}
    </Disclosure>
  );
}
