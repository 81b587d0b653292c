import { useTranslation } from "react-i18next";
import { DateField } from "../../../shared/ui/DateField.tsx";
import { BoxError, CARD_CLASS, FieldBox, fieldId, HINT_CLASS, TextInput } from "./controls.tsx";
import type { EventDraft } from "./form-model.ts";

type Props = {
  draft: EventDraft;
  errors: Record<string, string>;
  update: (patch: Partial<EventDraft>) => void;
};

const SOCIAL = ["facebookUrl", "instagramUrl", "xUrl", "youtubeUrl", "vimeoUrl"] as const;

/** Step 2: how to reach the organisers, register and follow the race. */
export function CommunicationStep({ draft, errors, update }: Props) {
  const { t } = useTranslation("editor");
  const url = (field: (typeof SOCIAL)[number] | "website" | "registrationUrl" | "liveTrackingUrl" | "liveVideoUrl") => (
    <TextInput
      key={field}
      path={field}
      type="url"
      inputMode="url"
      autoComplete="url"
      placeholder={t("communication.urlPlaceholder")}
      label={t(`communication.${field}`)}
      value={draft[field]}
      onChange={(value) => update({ [field]: value })}
      error={errors[field]}
    />
  );
  return (
    <div className="space-y-6">
      <section className={`${CARD_CLASS} space-y-4`} aria-labelledby="ef-contact-heading">
        <h3 id="ef-contact-heading" className="font-bold text-ink-900 text-lg">
          {t("communication.contact")}
        </h3>
        <p className="text-ink-700 text-sm">{t("communication.contactHint")}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput
            path="contactEmail"
            type="email"
            autoComplete="email"
            label={t("communication.contactEmail")}
            value={draft.contactEmail}
            onChange={(contactEmail) => update({ contactEmail })}
            error={errors.contactEmail}
          />
          <TextInput
            path="contactPhone"
            type="tel"
            autoComplete="tel"
            label={t("communication.contactPhone")}
            value={draft.contactPhone}
            onChange={(contactPhone) => update({ contactPhone })}
            error={errors.contactPhone}
          />
        </div>
        {url("website")}
      </section>

      <section className={`${CARD_CLASS} space-y-4`} aria-labelledby="ef-registration-heading">
        <h3 id="ef-registration-heading" className="font-bold text-ink-900 text-lg">
          {t("communication.registration")}
        </h3>
        <div className="grid gap-4 sm:grid-cols-2">
          {url("registrationUrl")}
          <FieldBox path="registrationOpensAt">
            <DateField
              id={fieldId("registrationOpensAt")}
              label={t("communication.registrationOpensAt")}
              value={draft.registrationOpensAt}
              min="2017-01-01"
              onChange={(registrationOpensAt) => update({ registrationOpensAt })}
            />
            <p className={HINT_CLASS}>{t("communication.registrationOpensAtHint")}</p>
            <BoxError path="registrationOpensAt" error={errors.registrationOpensAt} />
          </FieldBox>
        </div>
      </section>

      <section className={`${CARD_CLASS} space-y-4`} aria-labelledby="ef-live-heading">
        <h3 id="ef-live-heading" className="font-bold text-ink-900 text-lg">
          {t("communication.live")}
        </h3>
        <div className="grid gap-4 sm:grid-cols-2">
          {url("liveTrackingUrl")}
          {url("liveVideoUrl")}
        </div>
      </section>

      <section className={`${CARD_CLASS} space-y-4`} aria-labelledby="ef-social-heading">
        <h3 id="ef-social-heading" className="font-bold text-ink-900 text-lg">
          {t("communication.social")}
        </h3>
        <div className="grid gap-4 sm:grid-cols-2">{SOCIAL.map(url)}</div>
      </section>
    </div>
  );
}
