import { Download, Link2, TriangleAlert } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { LOCALES, type Locale } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import {
  DANGER_BUTTON,
  FieldError,
  FormError,
  formValues,
  INPUT_CLASS,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
  TextField,
} from "../../../shared/ui/fields.tsx";
import { useApiForm } from "../../../shared/ui/use-api-form.ts";
import {
  changeEmailBodySchema,
  changePasswordBodySchema,
  disableBodySchema,
  type Me,
  preferencesBodySchema,
} from "../accounts.contract.ts";
import { VerifyEmailPanel } from "./VerifyEmailPanel.tsx";

type Notify = (message: string) => void;
const PROVIDER_NAMES = { google: "Google", facebook: "Facebook", strava: "Strava" } as const;

function Panel({
  id,
  title,
  children,
  tone = "plain",
}: {
  id: string;
  title: string;
  children: ReactNode;
  tone?: "plain" | "danger";
}) {
  return (
    <section
      aria-labelledby={id}
      className={`rounded-2xl border p-4 sm:p-6 ${tone === "danger" ? "border-red-200 bg-red-50/40" : "border-slate-200 bg-white"}`}
    >
      <h2 id={id} className="mb-4 font-semibold text-ink-900 text-lg">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function EmailPanel({ me, onChange, notify }: { me: Me; onChange: (me: Me) => void; notify: Notify }) {
  const { t } = useTranslation("account");
  const form = useApiForm<{ user: Me }>({
    url: `/api/user/email/${me.id}`,
    schema: changeEmailBodySchema,
    onSuccess: ({ user }) => {
      onChange(user);
      notify(
        user.emailStatus === "pending_change"
          ? t("settings.emailPending", { email: user.pendingEmail })
          : t("settings.emailSaved"),
      );
    },
  });
  return (
    <Panel id="settings-email" title={t("settings.emailTitle")}>
      <p className="mb-4 text-ink-700 text-sm">
        {t("settings.emailCurrent", { email: me.email })} —{" "}
        <strong>{t(`settings.emailStatus.${me.emailStatus}`)}</strong>
      </p>
      {me.emailStatus !== "verified" && (
        <div className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4">
          <VerifyEmailPanel
            compact
            email={me.pendingEmail ?? me.email}
            onVerified={(user) => {
              onChange(user);
              notify(t("verify.done"));
            }}
          />
        </div>
      )}
      <form
        method="post"
        noValidate
        className="grid gap-4 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          form.submit(formValues(event.currentTarget));
        }}
      >
        <FormError message={form.formError} />
        <TextField
          name="email"
          type="email"
          label={t("fields.newEmail")}
          autoComplete="email"
          required
          error={form.errors.email}
        />
        {me.hasPassword && (
          <TextField
            name="currentPassword"
            type="password"
            label={t("fields.currentPassword")}
            autoComplete="current-password"
            error={form.errors.currentPassword}
          />
        )}
        <div className="sm:col-span-2">
          <button type="submit" className={PRIMARY_BUTTON} disabled={form.pending}>
            {t("settings.emailSubmit")}
          </button>
        </div>
      </form>
    </Panel>
  );
}

export function PasswordPanel({ me, onChange, notify }: { me: Me; onChange: (me: Me) => void; notify: Notify }) {
  const { t } = useTranslation("account");
  const form = useApiForm<{ user: Me }>({
    url: `/api/user/password/${me.id}`,
    schema: changePasswordBodySchema,
    onSuccess: ({ user }) => {
      onChange(user);
      notify(t("settings.passwordSaved"));
    },
  });
  return (
    <Panel id="settings-password" title={t(me.hasPassword ? "settings.passwordTitle" : "settings.passwordCreateTitle")}>
      <form
        method="post"
        noValidate
        className="grid gap-4 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          const form_ = event.currentTarget;
          form.submit(formValues(form_)).then((ok) => ok && form_.reset());
        }}
      >
        <FormError message={form.formError} />
        {me.hasPassword && (
          <TextField
            className="sm:col-span-2"
            name="currentPassword"
            type="password"
            label={t("fields.currentPassword")}
            autoComplete="current-password"
            error={form.errors.currentPassword}
          />
        )}
        <TextField
          name="password"
          type="password"
          label={t("fields.newPassword")}
          autoComplete="new-password"
          error={form.errors.password}
        />
        <TextField
          name="passwordConfirmation"
          type="password"
          label={t("fields.passwordConfirmation")}
          autoComplete="new-password"
          error={form.errors.passwordConfirmation}
        />
        <p className="text-ink-500 text-sm sm:col-span-2">{t("settings.passwordHint")}</p>
        <div className="sm:col-span-2">
          <button type="submit" className={PRIMARY_BUTTON} disabled={form.pending}>
            {t("settings.passwordSubmit")}
          </button>
        </div>
      </form>
    </Panel>
  );
}

export function PreferencesPanel({ me, onChange, notify }: { me: Me; onChange: (me: Me) => void; notify: Notify }) {
  const { t } = useTranslation("account");
  const form = useApiForm<{ user: Me }>({
    url: `/api/user/preferences/${me.id}`,
    schema: preferencesBodySchema,
    onSuccess: ({ user }) => {
      onChange(user);
      notify(t("settings.preferencesSaved"));
    },
  });
  return (
    <Panel id="settings-preferences" title={t("settings.preferencesTitle")}>
      <form
        method="post"
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const v = formValues(event.currentTarget);
          form.submit({ newsletter: v.newsletter, locale: v.locale });
        }}
      >
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            name="newsletter"
            defaultChecked={me.newsletter}
            className="mt-1 h-5 w-5 accent-brand-700"
          />
          <span>
            <span className="block font-medium text-ink-900">{t("settings.newsletter")}</span>
            <span className="block text-ink-700 text-sm">{t("settings.newsletterHint")}</span>
          </span>
        </label>
        <div className="max-w-xs">
          <label htmlFor="settings-locale" className="mb-1 block font-medium text-ink-900 text-sm">
            {t("settings.language")}
          </label>
          <select id="settings-locale" name="locale" defaultValue={me.locale} className={INPUT_CLASS}>
            {LOCALES.map((l) => (
              <option key={l} value={l}>
                {t(`settings.languages.${l}`)}
              </option>
            ))}
          </select>
          <p className="mt-1 text-ink-500 text-sm">{t("settings.languageHint")}</p>
        </div>
        <FormError message={form.formError} />
        <button type="submit" className={PRIMARY_BUTTON} disabled={form.pending}>
          {t("settings.preferencesSubmit")}
        </button>
      </form>
    </Panel>
  );
}

export function LinkedAccountsPanel({
  me,
  providers,
  locale,
}: {
  me: Me;
  providers: readonly (keyof typeof PROVIDER_NAMES)[];
  locale: Locale;
}) {
  const { t } = useTranslation("account");
  if (providers.length === 0 && me.identities.length === 0) return null;
  const next = pagePath("settings", locale);
  return (
    <Panel id="settings-linked" title={t("settings.linkedTitle")}>
      <ul className="divide-y divide-slate-200">
        {(Object.keys(PROVIDER_NAMES) as (keyof typeof PROVIDER_NAMES)[])
          .filter((p) => providers.includes(p) || me.identities.includes(p))
          .map((provider) => (
            <li key={provider} className="flex items-center justify-between gap-3 py-3">
              <span className="font-medium">{PROVIDER_NAMES[provider]}</span>
              {me.identities.includes(provider) ? (
                <span className="text-emerald-800 text-sm">✓ {t("settings.linked")}</span>
              ) : (
                <a
                  href={`/connect/${provider}?${new URLSearchParams({ lang: locale, next })}`}
                  className={`${SECONDARY_BUTTON} px-3 py-1.5 text-sm`}
                >
                  <Link2 className="h-4 w-4" aria-hidden="true" />
                  {t("settings.link")}
                </a>
              )}
            </li>
          ))}
      </ul>
    </Panel>
  );
}

export function ExportPanel() {
  const { t } = useTranslation("account");
  return (
    <Panel id="settings-export" title={t("settings.exportTitle")}>
      <p className="mb-4 text-ink-700 text-sm">{t("settings.exportText")}</p>
      <a href="/api/me/export" download className={SECONDARY_BUTTON} data-testid="export-data">
        <Download className="h-4 w-4" aria-hidden="true" />
        {t("settings.exportSubmit")}
      </a>
    </Panel>
  );
}

export function DisablePanel({ me, locale }: { me: Me; locale: Locale }) {
  const { t } = useTranslation("account");
  const [open, setOpen] = useState(false);
  const form = useApiForm({
    url: "/api/user/disable-account",
    schema: disableBodySchema,
    onSuccess: () => window.location.assign(pagePath("home", locale)),
  });
  return (
    <Panel id="settings-disable" title={t("settings.disableTitle")} tone="danger">
      <p className="mb-4 text-ink-700 text-sm">{t("settings.disableText")}</p>
      {!open ? (
        <button type="button" className={DANGER_BUTTON} onClick={() => setOpen(true)}>
          {t("settings.disableStart")}
        </button>
      ) : (
        <form
          method="post"
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            const v = formValues(event.currentTarget);
            form.submit({
              confirm: v.confirm === true ? true : undefined,
              currentPassword: v.currentPassword || undefined,
            });
          }}
        >
          <p className="flex items-start gap-2 font-medium text-red-900" role="alert">
            <TriangleAlert className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
            {t("settings.disableWarning")}
          </p>
          <div>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="confirm"
                className="mt-0.5 h-4 w-4 accent-red-700"
                aria-describedby={form.errors.confirm ? "confirm-error" : undefined}
              />
              {t("settings.disableConfirm")}
            </label>
            <FieldError id="confirm-error" message={form.errors.confirm} />
          </div>
          {me.hasPassword && (
            <TextField
              name="currentPassword"
              type="password"
              label={t("fields.currentPassword")}
              autoComplete="current-password"
              error={form.errors.currentPassword}
            />
          )}
          <FormError message={form.formError} />
          <div className="flex flex-wrap gap-3">
            <button type="submit" className={DANGER_BUTTON} disabled={form.pending}>
              {t("settings.disableSubmit")}
            </button>
            <button type="button" className={SECONDARY_BUTTON} onClick={() => setOpen(false)}>
              {t("settings.cancel")}
            </button>
          </div>
        </form>
      )}
    </Panel>
  );
}
