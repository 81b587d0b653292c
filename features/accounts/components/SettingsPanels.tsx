import { Download, Link2, TriangleAlert } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { LOCALES, type Locale } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import {
  CheckboxField,
  DANGER_BUTTON,
  EmailField,
  FormError,
  FormFooter,
  SECONDARY_BUTTON,
  SelectField,
  SubmitButton,
} from "../../../shared/ui/fields.tsx";
import { useApiForm } from "../../../shared/ui/form/use-api-form.ts";
import {
  changeEmailBodySchema,
  changePasswordBodySchema,
  disableBodySchema,
  type Me,
  preferencesBodySchema,
} from "../accounts.contract.ts";
import { CurrentPasswordField, NewPasswordFields } from "./AccountFields.tsx";
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

/** A settings form that saves the member and says so. */
function useSettingsForm<Input extends Record<string, unknown>, Output>(
  schema: z.ZodType<Output, Input>,
  type: "email" | "password" | "preferences",
  { me, onChange, notify }: PanelProps,
  message: (user: Me) => string,
  options: { defaultValue?: { [Key in keyof Input]?: unknown }; resetOnSuccess?: boolean } = {},
) {
  return useApiForm({
    schema,
    url: `/api/user/${type}/${me.id}`,
    ...options,
    onSuccess: ({ user }: { user: Me }) => {
      onChange(user);
      notify(message(user));
    },
  });
}

type PanelProps = { me: Me; onChange: (me: Me) => void; notify: Notify };

export function EmailPanel(props: PanelProps) {
  const { me, onChange, notify } = props;
  const { t } = useTranslation("account");
  const { fields, ...form } = useSettingsForm(changeEmailBodySchema, "email", props, (user) =>
    user.emailStatus === "pending_change"
      ? t("settings.emailPending", { email: user.pendingEmail })
      : t("settings.emailSaved"),
  );
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
      <form {...form.props} className="grid gap-4 sm:grid-cols-2">
        <FormError message={form.formError} />
        <EmailField field={fields.email} label={t("fields.newEmail")} required />
        {me.hasPassword && <CurrentPasswordField field={fields.currentPassword} />}
        <div className="sm:col-span-2">
          <SubmitButton pending={form.pending}>{t("settings.emailSubmit")}</SubmitButton>
        </div>
      </form>
    </Panel>
  );
}

export function PasswordPanel(props: PanelProps) {
  const { me } = props;
  const { t } = useTranslation("account");
  const { fields, ...form } = useSettingsForm(
    changePasswordBodySchema,
    "password",
    props,
    () => t("settings.passwordSaved"),
    { resetOnSuccess: true },
  );
  return (
    <Panel id="settings-password" title={t(me.hasPassword ? "settings.passwordTitle" : "settings.passwordCreateTitle")}>
      <form {...form.props} className="grid gap-4 sm:grid-cols-2">
        <FormError message={form.formError} />
        {me.hasPassword && <CurrentPasswordField field={fields.currentPassword} className="sm:col-span-2" />}
        <NewPasswordFields
          password={fields.password}
          confirmation={fields.passwordConfirmation}
          label={t("fields.newPassword")}
        />
        <p className="text-ink-500 text-sm sm:col-span-2">{t("settings.passwordHint")}</p>
        <div className="sm:col-span-2">
          <SubmitButton pending={form.pending}>{t("settings.passwordSubmit")}</SubmitButton>
        </div>
      </form>
    </Panel>
  );
}

/** An unticked box is "no" (the API wants the answer either way). */
const preferencesFormSchema = preferencesBodySchema.extend({ newsletter: z.boolean().default(false) });

export function PreferencesPanel(props: PanelProps) {
  const { me } = props;
  const { t } = useTranslation("account");
  const { fields, ...form } = useSettingsForm(
    preferencesFormSchema,
    "preferences",
    props,
    () => t("settings.preferencesSaved"),
    { defaultValue: { newsletter: me.newsletter, locale: me.locale } },
  );
  return (
    <Panel id="settings-preferences" title={t("settings.preferencesTitle")}>
      <form {...form.props} className="space-y-4">
        <CheckboxField
          field={fields.newsletter}
          label={t("settings.newsletter")}
          description={t("settings.newsletterHint")}
          labelClassName="flex items-start gap-3"
          inputClassName="mt-1 h-5 w-5 accent-brand-700"
        />
        <SelectField
          field={fields.locale}
          label={t("settings.language")}
          hint={t("settings.languageHint")}
          className="max-w-xs"
        >
          {LOCALES.map((l) => (
            <option key={l} value={l}>
              {t(`settings.languages.${l}`)}
            </option>
          ))}
        </SelectField>
        <FormError message={form.formError} />
        <SubmitButton pending={form.pending}>{t("settings.preferencesSubmit")}</SubmitButton>
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
  const close = () => setOpen(false);
  const { fields, ...form } = useApiForm({
    schema: disableBodySchema,
    url: "/api/user/disable-account",
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
        <form {...form.props} className="space-y-4">
          <p className="flex items-start gap-2 font-medium text-red-900" role="alert">
            <TriangleAlert className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
            {t("settings.disableWarning")}
          </p>
          <CheckboxField
            field={fields.confirm}
            label={t("settings.disableConfirm")}
            inputClassName="mt-0.5 h-4 w-4 accent-red-700"
          />
          {me.hasPassword && <CurrentPasswordField field={fields.currentPassword} />}
          <FormFooter
            danger
            form={form}
            submit={t("settings.disableSubmit")}
            cancel={t("settings.cancel")}
            onCancel={close}
          />
        </form>
      )}
    </Panel>
  );
}
