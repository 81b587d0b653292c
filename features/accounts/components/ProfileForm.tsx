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
  FieldError,
  FormError,
  INPUT_CLASS,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
  TextField,
} from "../../../shared/ui/fields.tsx";
import { useApiForm } from "../../../shared/ui/use-api-form.ts";
import { GENDERS, type Me, profileBodySchema, USER_PHOTO_MAX_BYTES } from "../accounts.contract.ts";
import { VerifyEmailPanel } from "./VerifyEmailPanel.tsx";

type Country = { code: string; name: string };
type BestTimes = { best10k: number | null; bestHalf: number | null; bestMarathon: number | null };

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
  const [times, setTimes] = useState<BestTimes>({
    best10k: me.best10k,
    bestHalf: me.bestHalf,
    bestMarathon: me.bestMarathon,
  });
  const [needsVerification, setNeedsVerification] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useApiForm<{ user: Me }>({
    url: () => `/api/user/profile/${me.id}`,
    schema: profileBodySchema,
    onSuccess: ({ user: saved }) => {
      setUser(saved);
      onSaved(saved, t("profile.saved"));
    },
    onError: (code) => {
      if (code !== "EMAIL_VERIFICATION_REQUIRED") return false;
      setNeedsVerification(true);
      return true;
    },
  });

  function values() {
    const data = new FormData(formRef.current ?? undefined);
    const text = (name: string) => String(data.get(name) ?? "");
    return {
      firstName: text("firstName"),
      lastName: text("lastName"),
      pseudo: text("pseudo"),
      gender: text("gender") || null,
      city: text("city"),
      country: text("country") || null,
      presentation: text("presentation"),
      objectives: text("objectives"),
      sports: data.getAll("sports").map(String),
      ...times,
      publicProfile: data.get("publicProfile") === "on",
    };
  }

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
              form.submit(values());
            }}
          />
        </section>
      )}
      <form
        ref={formRef}
        method="post"
        noValidate
        className="space-y-6"
        onSubmit={(event) => {
          event.preventDefault();
          form.submit(values());
        }}
      >
        <FormError message={form.formError} />
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 font-semibold text-ink-900 text-lg">{t("profile.identity")}</legend>
          <TextField
            name="firstName"
            label={t("fields.firstName")}
            defaultValue={user.firstName}
            autoComplete="given-name"
            required
            error={form.errors.firstName}
          />
          <TextField
            name="lastName"
            label={t("fields.lastName")}
            defaultValue={user.lastName}
            autoComplete="family-name"
            error={form.errors.lastName}
          />
          <TextField
            name="pseudo"
            label={t("fields.pseudo")}
            defaultValue={user.pseudo}
            autoComplete="nickname"
            hint={t("register.pseudoHint")}
            error={form.errors.pseudo}
          />
          <div>
            <label htmlFor="profile-gender" className="mb-1 block font-medium text-ink-900 text-sm">
              {t("fields.gender")}
            </label>
            <select id="profile-gender" name="gender" defaultValue={user.gender ?? ""} className={INPUT_CLASS}>
              <option value="">{t("profile.genderUnset")}</option>
              {GENDERS.map((g) => (
                <option key={g} value={g}>
                  {t(`profile.gender.${g}`)}
                </option>
              ))}
            </select>
          </div>
          <TextField
            name="city"
            label={t("fields.city")}
            defaultValue={user.city ?? ""}
            autoComplete="address-level2"
            error={form.errors.city}
          />
          <div>
            <label htmlFor="profile-country" className="mb-1 block font-medium text-ink-900 text-sm">
              {t("fields.country")}
            </label>
            <select id="profile-country" name="country" defaultValue={user.country ?? ""} className={INPUT_CLASS}>
              <option value="">{t("profile.countryUnset")}</option>
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="mb-2 font-semibold text-ink-900 text-lg">{t("profile.about")}</legend>
          <TextArea
            name="presentation"
            label={t("fields.presentation")}
            defaultValue={user.presentation ?? ""}
            error={form.errors.presentation}
          />
          <TextArea
            name="objectives"
            label={t("fields.objectives")}
            defaultValue={user.objectives ?? ""}
            error={form.errors.objectives}
          />
        </fieldset>

        <fieldset>
          <legend className="mb-2 font-semibold text-ink-900 text-lg">{t("fields.sports")}</legend>
          <div className="flex flex-wrap gap-2">
            {SPORTS.map((sport) => (
              <label
                key={sport.key}
                className="flex cursor-pointer items-center gap-2 rounded-full border border-slate-300 bg-white px-3 py-1.5 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700"
              >
                <input
                  type="checkbox"
                  name="sports"
                  value={sport.key}
                  defaultChecked={user.sports.includes(sport.key)}
                  className="h-4 w-4 accent-brand-700"
                />
                {sport[locale]}
              </label>
            ))}
          </div>
          <FieldError id="sports-error" message={form.errors.sports} />
        </fieldset>

        <fieldset>
          <legend className="mb-1 font-semibold text-ink-900 text-lg">{t("profile.bestTimes")}</legend>
          <p className="mb-3 text-ink-500 text-sm">{t("profile.bestTimesHint")}</p>
          <div className="grid gap-4 sm:grid-cols-3">
            {(["best10k", "bestHalf", "bestMarathon"] as const).map((key) => (
              <div key={key} data-testid={`duration-${key}`}>
                <DurationInput
                  label={t(`fields.${key}`)}
                  value={times[key]}
                  maxHours={99}
                  onChange={(seconds) => setTimes((current) => ({ ...current, [key]: seconds }))}
                />
                <FieldError id={`${key}-error`} message={form.errors[key]} />
              </div>
            ))}
          </div>
        </fieldset>

        <fieldset className="rounded-xl border border-slate-200 bg-slate-50 p-4">
          <legend className="sr-only">{t("fields.publicProfile")}</legend>
          <label className="flex items-start gap-3">
            <input
              type="checkbox"
              name="publicProfile"
              defaultChecked={user.publicProfile}
              className="mt-1 h-5 w-5 accent-brand-700"
            />
            <span>
              <span className="block font-semibold text-ink-900">{t("fields.publicProfile")}</span>
              <span className="block text-ink-700 text-sm">{t("profile.publicHint")}</span>
            </span>
          </label>
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

        <button type="submit" className={PRIMARY_BUTTON} disabled={form.pending}>
          {form.pending ? t("profile.saving") : t("profile.save")}
        </button>
      </form>
    </div>
  );
}

function TextArea({
  name,
  label,
  error,
  defaultValue,
}: {
  name: string;
  label: string;
  error?: string;
  defaultValue: string;
}) {
  const id = `profile-${name}`;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-medium text-ink-900 text-sm">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        rows={4}
        maxLength={2000}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={INPUT_CLASS}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

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
