import { Camera, Eye } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { apiFetch } from "../../../shared/api-client.ts";
import { apiErrorBodySchema } from "../../../shared/api-error.ts";
import { SPORTS } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { USER_FALLBACK_IMAGE } from "../../../shared/image-url.ts";
import { DurationInput } from "../../../shared/ui/DurationInput.tsx";
import {
  CheckboxField,
  FieldError,
  FormError,
  SECONDARY_BUTTON,
  SelectField,
  SubmitButton,
  TextAreaField,
  TextField,
} from "../../../shared/ui/fields.tsx";
import { useApiForm } from "../../../shared/ui/form/use-api-form.ts";
import { GENDERS, type Me, profileBodySchema, USER_PHOTO_MAX_BYTES } from "../accounts.contract.ts";
import { VerifyEmailPanel } from "./VerifyEmailPanel.tsx";

type Country = { code: string; name: string };

/** The member's profile: photo, names, about, sports, best times and the public flag. */
export function ProfileForm({
  me,
  countries,
  onSaved,
}: {
  me: Me;
  countries: readonly Country[];
  onSaved: (me: Me, message: string) => void;
}) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [user, setUser] = useState(me);
  const [needsVerification, setNeedsVerification] = useState(false);
  const { fields, ...form } = useApiForm({
    schema: profileBodySchema,
    url: `/api/user/profile/${me.id}`,
    onSuccess: ({ user: saved }: { user: Me }) => {
      setUser(saved);
      onSaved(saved, t("profile.saved"));
    },
    onError: (code) => {
      if (code !== "EMAIL_VERIFICATION_REQUIRED") return false;
      setNeedsVerification(true);
      return true;
    },
  });

  return (
    <div className="space-y-8">
      <PhotoField
        user={user}
        onChange={(next) => {
          setUser(next);
          onSaved(next, t("profile.photoSaved"));
        }}
        onNeedsVerification={() => setNeedsVerification(true)}
      />
      {needsVerification && user.emailStatus === "unverified" && (
        <section className="rounded-xl border border-amber-300 bg-amber-50 p-4" aria-label={t("verify.heading")}>
          <p className="mb-3 font-medium text-amber-950">{t("profile.verifyFirst")}</p>
          <VerifyEmailPanel
            compact
            email={user.pendingEmail ?? user.email}
            onVerified={(verified) => {
              setUser(verified);
              setNeedsVerification(false);
              form.resubmit();
            }}
          />
        </section>
      )}
      <form {...form.props} className="space-y-6">
        <FormError message={form.formError} />
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className={LEGEND}>{t("profile.identity")}</legend>
          <TextField
            field={fields.firstName}
            label={t("fields.firstName")}
            defaultValue={user.firstName}
            autoComplete="given-name"
            required
          />
          <TextField
            field={fields.lastName}
            label={t("fields.lastName")}
            defaultValue={user.lastName}
            autoComplete="family-name"
          />
          <TextField
            field={fields.pseudo}
            label={t("fields.pseudo")}
            defaultValue={user.pseudo}
            autoComplete="nickname"
            hint={t("register.pseudoHint")}
          />
          <SelectField field={fields.gender} label={t("fields.gender")} defaultValue={user.gender ?? ""}>
            <option value="">{t("profile.genderUnset")}</option>
            {GENDERS.map((g) => (
              <option key={g} value={g}>
                {t(`profile.gender.${g}`)}
              </option>
            ))}
          </SelectField>
          <TextField
            field={fields.city}
            label={t("fields.city")}
            defaultValue={user.city ?? ""}
            autoComplete="address-level2"
          />
          <SelectField field={fields.country} label={t("fields.country")} defaultValue={user.country ?? ""}>
            <option value="">{t("profile.countryUnset")}</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </SelectField>
        </fieldset>

        <fieldset className="space-y-4">
          <legend className={LEGEND}>{t("profile.about")}</legend>
          <TextAreaField
            field={fields.presentation}
            label={t("fields.presentation")}
            defaultValue={user.presentation ?? ""}
            rows={4}
            maxLength={2000}
          />
          <TextAreaField
            field={fields.objectives}
            label={t("fields.objectives")}
            defaultValue={user.objectives ?? ""}
            rows={4}
            maxLength={2000}
          />
        </fieldset>

        <fieldset>
          <legend className={LEGEND}>{t("fields.sports")}</legend>
          <div className="flex flex-wrap gap-2">
            {SPORTS.map((sport) => (
              <CheckboxField
                key={sport.key}
                name={fields.sports.name}
                value={sport.key}
                defaultChecked={user.sports.includes(sport.key)}
                label={sport[locale]}
                labelClassName="flex cursor-pointer items-center gap-2 rounded-full border border-slate-300 bg-white px-3 py-1.5 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700"
                inputClassName="h-4 w-4 accent-brand-700"
              />
            ))}
          </div>
          <FieldError id={fields.sports.errorId} message={fields.sports.errors?.[0]} />
        </fieldset>

        <fieldset>
          <legend className="mb-1 font-semibold text-ink-900 text-lg">{t("profile.bestTimes")}</legend>
          <p className="mb-3 text-ink-500 text-sm">{t("profile.bestTimesHint")}</p>
          <div className="grid gap-4 sm:grid-cols-3">
            {(["best10k", "bestHalf", "bestMarathon"] as const).map((key) => (
              <div key={key} data-testid={`duration-${key}`}>
                <DurationInput
                  label={t(`fields.${key}`)}
                  name={fields[key].name}
                  defaultValue={user[key]}
                  maxHours={99}
                />
                <FieldError id={fields[key].errorId} message={fields[key].errors?.[0]} />
              </div>
            ))}
          </div>
        </fieldset>

        <fieldset className="rounded-xl border border-slate-200 bg-slate-50 p-4">
          <legend className="sr-only">{t("fields.publicProfile")}</legend>
          <CheckboxField
            field={fields.publicProfile}
            defaultChecked={user.publicProfile}
            label={<span className="font-semibold">{t("fields.publicProfile")}</span>}
            description={t("profile.publicHint")}
            labelClassName="flex items-start gap-3"
            inputClassName="mt-1 h-5 w-5 accent-brand-700"
          />
          {user.publicProfile && (
            <Link
              to={pagePath("member", locale, { slug: user.slug })}
              className="mt-3 inline-flex items-center gap-1 font-medium text-brand-700 text-sm underline"
            >
              <Eye className="h-4 w-4" aria-hidden="true" />
              {t("profile.viewPublic")}
            </Link>
          )}
        </fieldset>

        <SubmitButton pending={form.pending} pendingLabel={t("profile.saving")}>
          {t("profile.save")}
        </SubmitButton>
      </form>
    </div>
  );
}

const LEGEND = "mb-2 font-semibold text-ink-900 text-lg";

function PhotoField({
  user,
  onChange,
  onNeedsVerification,
}: {
  user: Me;
  onChange: (me: Me) => void;
  onNeedsVerification: () => void;
}) {
  const { t } = useTranslation("account");
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function upload(file: File) {
    setError(null);
    if (file.size > USER_PHOTO_MAX_BYTES) {
      setError(t("profile.photoTooHeavy"));
      return;
    }
    setUploading(true);
    try {
      const data = new FormData();
      data.append("file", file);
      const response = await apiFetch("/api/upload/user-photo", { method: "POST", body: data });
      const body = await response.json().catch(() => null);
      if (response.ok) onChange(body.user);
      else {
        const parsed = apiErrorBodySchema.safeParse(body);
        if (parsed.data?.error.code === "EMAIL_VERIFICATION_REQUIRED") onNeedsVerification();
        setError(parsed.data?.error.message ?? t("profile.photoFailed"));
      }
    } finally {
      setUploading(false);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="flex items-center gap-4">
      <img
        src={user.photoUrl ?? USER_FALLBACK_IMAGE}
        alt={t("profile.photoAlt", { name: user.displayName })}
        width={96}
        height={96}
        className="h-24 w-24 rounded-full border border-slate-200 bg-slate-100 object-cover"
      />
      <div>
        <label
          className={`${SECONDARY_BUTTON} cursor-pointer has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700`}
        >
          <Camera className="h-4 w-4" aria-hidden="true" />
          {uploading ? t("profile.photoUploading") : t("profile.photoChange")}
          <input
            ref={input}
            type="file"
            name="file"
            accept="image/jpeg,image/png,image/webp"
            className="sr-only"
            data-testid="photo-input"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file) upload(file);
            }}
          />
        </label>
        <p className="mt-1 text-ink-500 text-sm">{t("profile.photoHint")}</p>
        <FieldError id="photo-error" message={error ?? undefined} />
      </div>
    </div>
  );
}
