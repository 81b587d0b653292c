import { useTranslation } from "react-i18next";
import { EVENT_OPTIONS, EVENT_SCOPES, SPORTS } from "../../../shared/constants.ts";
import { DateField } from "../../../shared/ui/DateField.tsx";
import { Select } from "../../../shared/ui/Select.tsx";
import {
  BoxError,
  CARD_CLASS,
  Check,
  FieldBox,
  fieldId,
  HINT_CLASS,
  RadioGroup,
  RequiredMark,
  TextInput,
} from "./controls.tsx";
import type { EventDraft } from "./form-model.ts";
import { PlaceFields } from "./PlaceFields.tsx";
import { RichText } from "./RichText.tsx";

type Props = {
  draft: EventDraft;
  errors: Record<string, string>;
  update: (patch: Partial<EventDraft>) => void;
  locale: "fr" | "en";
  countries: readonly { code: string; name: string }[];
  /** Bumped when the whole form is replaced (a draft restored), for the rich text box. */
  revision: number;
};

/** Step 1: what, when and where. */
export function InfoStep({ draft, errors, update, locale, countries, revision }: Props) {
  const { t } = useTranslation("editor");
  const sportOptions = SPORTS.map((s) => ({ value: s.key, label: t(`sports:${s.key}`) }));
  return (
    <div className="space-y-6">
      <section className={`${CARD_CLASS} space-y-4`} aria-labelledby="ef-about-heading">
        <h3 id="ef-about-heading" className="font-bold text-ink-900 text-lg">
          {t("info.about")}
        </h3>
        <TextInput
          path="name"
          label={t("info.name")}
          hint={t("info.nameHint")}
          value={draft.name}
          onChange={(name) => update({ name })}
          error={errors.name}
          required
          maxLength={150}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <FieldBox path="sport">
            <Select
              id={fieldId("sport")}
              label={
                <>
                  {t("info.sport")}
                  <RequiredMark />
                </>
              }
              options={sportOptions}
              value={draft.sport}
              placeholder={t("info.sportPlaceholder")}
              searchable
              onChange={(sport) => update({ sport: sport === null ? null : String(sport) })}
            />
            <BoxError path="sport" error={errors.sport} />
          </FieldBox>
          <TextInput
            path="organizerName"
            label={t("info.organizer")}
            value={draft.organizerName}
            onChange={(organizerName) => update({ organizerName })}
            error={errors.organizerName}
            autoComplete="organization"
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Check
            path="isCompetition"
            toggle
            label={t("info.competition")}
            hint={t("info.competitionHint")}
            checked={draft.isCompetition}
            onChange={(isCompetition) => update({ isCompetition })}
          />
          <Check
            path="isConnected"
            toggle
            label={t("info.connected")}
            hint={t("info.connectedHint")}
            checked={draft.isConnected}
            onChange={(isConnected) => update({ isConnected })}
          />
        </div>
        <RadioGroup
          path="scope"
          legend={t("info.scope")}
          value={draft.scope}
          options={EVENT_SCOPES.map((scope) => ({ value: scope, label: t(`events:scope.${scope}`) }))}
          onChange={(scope) => update({ scope })}
          error={errors.scope}
        />
      </section>

      <section className={`${CARD_CLASS} space-y-4`} aria-labelledby="ef-dates-heading">
        <h3 id="ef-dates-heading" className="font-bold text-ink-900 text-lg">
          {t("info.dates")}
        </h3>
        <div className="grid gap-4 sm:grid-cols-2">
          <FieldBox path="startDate">
            <DateField
              id={fieldId("startDate")}
              label={
                <>
                  {t("info.startDate")}
                  <RequiredMark />
                </>
              }
              value={draft.startDate}
              min="2017-01-01"
              onChange={(startDate) => {
                // A one-day event is the usual case: the last day follows the first.
                const endDate = !draft.endDate || (startDate && draft.endDate < startDate) ? startDate : draft.endDate;
                update({ startDate, endDate });
              }}
            />
            <BoxError path="startDate" error={errors.startDate} />
          </FieldBox>
          <FieldBox path="endDate">
            <DateField
              id={fieldId("endDate")}
              label={
                <>
                  {t("info.endDate")}
                  <RequiredMark />
                </>
              }
              value={draft.endDate}
              min="2017-01-01"
              onChange={(endDate) => update({ endDate })}
            />
            <p className={HINT_CLASS}>{t("info.endDateHint")}</p>
            <BoxError path="endDate" error={errors.endDate} />
          </FieldBox>
        </div>
        <Check
          path="dateConfirmed"
          label={t("info.dateConfirmed")}
          hint={t("info.dateConfirmedHint")}
          checked={draft.dateConfirmed}
          onChange={(dateConfirmed) => update(dateConfirmed ? { dateConfirmed } : { dateConfirmed, certified: false })}
        />
        {draft.dateConfirmed ? (
          <div className="ml-8 rounded-lg border border-amber-300 bg-amber-50 p-3">
            <Check
              path="certified"
              required
              label={t("info.certified")}
              checked={draft.certified}
              onChange={(certified) => update({ certified })}
              error={errors.certified}
            />
          </div>
        ) : null}
      </section>

      <section className={CARD_CLASS}>
        <PlaceFields
          value={draft}
          onChange={(patch) => update(patch)}
          errors={errors}
          countries={countries}
          locale={locale}
        />
      </section>

      <section className={`${CARD_CLASS} space-y-4`} aria-labelledby="ef-details-heading">
        <h3 id="ef-details-heading" className="font-bold text-ink-900 text-lg">
          {t("info.details")}
        </h3>
        <RichText
          path="description"
          label={t("info.description")}
          hint={t("info.descriptionHint")}
          value={draft.description}
          onChange={(description) => update({ description })}
          revision={revision}
          error={errors.description}
        />
        <fieldset>
          <legend className="mb-2 font-medium text-ink-900 text-sm">{t("info.options")}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {EVENT_OPTIONS.map((option) => (
              <Check
                key={option}
                path={`options.${option}`}
                label={t(`event:options.${option}`)}
                checked={draft.options[option]}
                onChange={(checked) => update({ options: { ...draft.options, [option]: checked } })}
              />
            ))}
          </div>
        </fieldset>
      </section>
    </div>
  );
}
