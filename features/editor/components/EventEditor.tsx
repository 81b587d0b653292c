import { ArrowLeft, CircleAlert, ExternalLink } from "lucide-react";
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { apiFetch } from "../../../shared/api-client.ts";
import { apiErrorBodySchema } from "../../../shared/api-error.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { EditableEvent } from "../editor.contract.ts";
import { CurrentStep } from "./CurrentStep.tsx";
import { DraftPrompt } from "./DraftPrompt.tsx";
import { type Duplicate, DuplicatesDialog } from "./DuplicatesDialog.tsx";
import { clearDraft, draftKey } from "./drafts.ts";
import { EditorBottomBar } from "./EditorBottomBar.tsx";
import { EditorNotices } from "./EditorNotices.tsx";
import { FIRST_ERROR, firstErrorPath, firstStepWithErrors, focusPath } from "./editor-focus.ts";
import {
  comparable,
  draftFromEvent,
  type EventDraft,
  emptyEvent,
  STEPS,
  type Step,
  stepOfField,
  type TrackInfo,
  toPayload,
} from "./form-model.ts";
import { LeaveDialog, useLeaveGuard } from "./LeaveGuard.tsx";
import { StatusBadges } from "./StatusBadges.tsx";
import { StepIndicator } from "./StepIndicator.tsx";
import { useDraftAutosave } from "./use-draft-autosave.ts";
import type { Visuals } from "./VisualsStep.tsx";
import { type FieldErrors, validateAll, validateStep } from "./validate.ts";

export type EditorEvent = Pick<
  EditableEvent,
  "id" | "slug" | "status" | "checkStatus" | "cancelled" | "postponed" | "access" | "name"
>;

type Props = {
  locale: "fr" | "en";
  userId: number;
  emailVerified: boolean;
  /** The saved event, or null for a new one. */
  event: EditableEvent | null;
  countries: readonly { code: string; name: string }[];
  visuals: Visuals;
  /** What is known of the saved courses' tracks (public events), by track id. */
  tracks?: Readonly<Record<number, TrackInfo>>;
};

/** What the page remembers across the redirect that follows a first save. */
export type EditorLocationState = { saved?: "created" | "saved"; step?: Step } | null;

type SaveAnswer = { event: EditableEvent; requestId: number | null; created: boolean };

function metaOf(event: EditableEvent): EditorEvent {
  const { id, slug, status, checkStatus, cancelled, postponed, access, name } = event;
  return { id, slug, status, checkStatus, cancelled, postponed, access, name };
}

/**
 * The event form in four steps (information, communication, courses, visuals): each step checked
 * with its schema before the next, one save for the whole form, the duplicates check before a
 * new listing, a draft kept in the browser, and a warning before leaving with unsaved changes.
 */
export function EventEditor({
  locale,
  userId,
  emailVerified,
  event,
  countries,
  visuals: initialVisuals,
  tracks,
}: Props) {
  const { t } = useTranslation("editor");
  const navigate = useNavigate();
  const location = useLocation();
  const arrival = (location.state ?? null) as EditorLocationState;

  const [meta, setMeta] = useState<EditorEvent | null>(event ? metaOf(event) : null);
  const initialDraft = useMemo(() => {
    if (!event) return emptyEvent();
    const draft = draftFromEvent(event, locale);
    draft.courses = draft.courses.map((c) =>
      c.trackId && tracks?.[c.trackId] ? { ...c, track: tracks[c.trackId] ?? null } : c,
    );
    return draft;
  }, [event, locale, tracks]);
  const [draft, setDraft] = useState<EventDraft>(initialDraft);
  const [baseline, setBaseline] = useState(() => comparable(initialDraft));
  const [step, setStep] = useState<Step>(arrival?.step ?? "info");
  const [visited, setVisited] = useState<Set<Step>>(
    () => new Set(event ? STEPS : STEPS.slice(0, STEPS.indexOf(arrival?.step ?? "info") + 1)),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempted, setAttempted] = useState<Set<Step>>(new Set());
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [revision, setRevision] = useState(0);
  const [visuals, setVisuals] = useState<Visuals>(initialVisuals);
  const [duplicates, setDuplicates] = useState<Duplicate[] | null>(null);
  const [requestSent, setRequestSent] = useState(false);
  const [announcement, setAnnouncement] = useState("");

  const key = draftKey(userId, meta?.id ?? null);
  const dirty = comparable(draft) !== baseline;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const pendingFocus = useRef<string | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  const firstRender = useRef(true);
  const errorsRef = useRef(errors);
  errorsRef.current = errors;
  const stepRef = useRef(step);
  stepRef.current = step;

  const requestFocus = useCallback((path: string) => {
    pendingFocus.current = path;
    setFocusTick((n) => n + 1);
  }, []);

  // Focus: a field asked for, else the new step's heading.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each render that asked for it
  useEffect(() => {
    if (firstRender.current) return;
    let path = pendingFocus.current;
    pendingFocus.current = null;
    if (path === FIRST_ERROR) {
      const onStep = Object.entries(errorsRef.current).filter(([p]) => stepOfField(p) === stepRef.current);
      path = firstErrorPath(Object.fromEntries(onStep));
    }
    if (path && focusPath(path)) return;
    headingRef.current?.focus();
  }, [focusTick]);

  useEffect(() => {
    firstRender.current = false;
  }, []);

  const { storedDraft, setStoredDraft } = useDraftAutosave(key, draft, step, dirty, baseline);

  // The first save's redirect lands here: say it, and open the visuals.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per arrival
  useEffect(() => {
    if (arrival?.saved === "created") void showToast("success", t("save.created"));
    else if (arrival?.saved === "saved") void showToast("success", t("save.saved"));
    if (arrival?.saved) window.history.replaceState({ ...window.history.state, usr: null }, "");
  }, []);

  const { blocker, skipBlocker } = useLeaveGuard(dirty);

  // Once a step has been checked, its errors follow the edits (server errors stay until an edit).
  const attemptedRef = useRef(attempted);
  attemptedRef.current = attempted;
  const checkedDraft = useRef(draft);
  useEffect(() => {
    if (checkedDraft.current === draft) return;
    checkedDraft.current = draft;
    const current = stepRef.current;
    if (!attemptedRef.current.has(current) || current === "visuals") return;
    const fresh = validateStep(current, draft, t, locale);
    setErrors((all) => {
      const kept = Object.fromEntries(Object.entries(all).filter(([path]) => stepOfField(path) !== current));
      return { ...kept, ...fresh };
    });
  }, [draft, t, locale]);

  const update = useCallback((patch: Partial<EventDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
  }, []);

  const show = (target: Step, focus?: string | null) => {
    // A course without a date starts on the event's first day.
    if (target === "courses") {
      setDraft((d) =>
        d.startDate && d.courses.some((c) => !c.date)
          ? { ...d, courses: d.courses.map((c) => (c.date ? c : { ...c, date: d.startDate })) }
          : d,
      );
    }
    setStep(target);
    setVisited((current) => new Set([...current, ...STEPS.slice(0, STEPS.indexOf(target) + 1)]));
    setAnnouncement(
      t("steps.announce", { n: STEPS.indexOf(target) + 1, total: STEPS.length, name: t(`steps.${target}`) }),
    );
    pendingFocus.current = focus ?? null;
    setFocusTick((n) => n + 1);
  };

  /** Shows errors on their step and puts the focus on the first one. */
  const reveal = (found: FieldErrors) => {
    setErrors(found);
    const target = firstStepWithErrors(found) ?? step;
    setAttempted((current) => new Set([...current, target]));
    if (target !== step) {
      setStep(target);
      setVisited((current) => new Set([...current, target]));
      setAnnouncement(t("form.errorsOnStep", { name: t(`steps.${target}`) }));
    }
    // The step's fields must be on the page before the first one can be found.
    requestFocus(FIRST_ERROR);
  };

  const goTo = (target: Step) => {
    const from = STEPS.indexOf(step);
    const to = STEPS.indexOf(target);
    if (to <= from) return show(target);
    for (const s of STEPS.slice(from, to)) {
      const found = validateStep(s, draft, t, locale);
      setAttempted((current) => new Set([...current, s]));
      if (Object.keys(found).length) {
        reveal(found);
        return;
      }
    }
    setErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([path]) => STEPS.indexOf(stepOfField(path)) >= to)),
    );
    show(target);
  };

  const save = async (confirmedDistinct = false) => {
    setFormError(null);
    const found = validateAll(draft, t, locale);
    setAttempted(new Set(STEPS));
    if (Object.keys(found).length) {
      reveal(found);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      if (!meta && !confirmedDistinct) {
        const response = await apiFetch("/api/event/check-duplicates", {
          method: "POST",
          body: JSON.stringify({
            name: draft.name.trim(),
            startDate: draft.startDate,
            lat: draft.lat,
            lng: draft.lng,
          }),
        }).catch(() => null);
        const body = response?.ok ? ((await response.json()) as { duplicates?: Duplicate[] }) : null;
        if (body?.duplicates?.length) {
          setDuplicates(body.duplicates);
          return;
        }
      }
      const response = await apiFetch(`/api/event/${meta?.id ?? 0}`, {
        method: "POST",
        body: JSON.stringify(toPayload(draft)),
      });
      const body = await response.json().catch(() => null);
      if (!response.ok) {
        const parsed = apiErrorBodySchema.safeParse(body);
        if (!parsed.success) {
          setFormError(t("common:errors.generic"));
          return;
        }
        const { code, message, field, fields } = parsed.data.error;
        if (code === "EMAIL_VERIFICATION_REQUIRED") {
          setFormError(t("save.verifyEmail"));
          return;
        }
        const server: FieldErrors = {};
        for (const f of fields ?? []) server[f.field] ??= f.message;
        if (field) server[field] ??= message;
        if (Object.keys(server).length) reveal(server);
        else setFormError(message);
        return;
      }
      const answer = body as SaveAnswer;
      clearDraft(key);
      if (answer.requestId) {
        setBaseline(comparable(draft));
        setRequestSent(true);
        void showToast("success", t("save.requestSent"));
        return;
      }
      const saved = draftFromEvent(answer.event, locale);
      // Track details are known from this session's uploads only; carry them over.
      saved.courses = saved.courses.map((course, i) => {
        const before = draft.courses[i];
        return before?.track && before.trackId === course.trackId ? { ...course, track: before.track } : course;
      });
      if (answer.created) {
        clearDraft(draftKey(userId, null));
        skipBlocker.current = true;
        navigate(pagePath("eventEdit", locale, { id: answer.event.id }), {
          replace: true,
          state: { saved: "created", step: "visuals" } satisfies EditorLocationState,
        });
        return;
      }
      setDraft(saved);
      setBaseline(comparable(saved));
      setMeta(metaOf(answer.event));
      setRevision((n) => n + 1);
      void showToast("success", t("save.saved"));
    } catch {
      setFormError(t("common:errors.generic"));
    } finally {
      setSaving(false);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const index = STEPS.indexOf(step);
    const next = STEPS[index + 1];
    if (next && next !== "visuals") goTo(next);
    else if (next === "visuals" && meta) goTo(next);
    else void save();
  };

  const restore = () => {
    if (!storedDraft) return;
    setDraft(storedDraft.form);
    setRevision((n) => n + 1);
    setStoredDraft(null);
    show(storedDraft.step === "visuals" ? "courses" : storedDraft.step);
    void showToast("info", t("draft.restored"));
  };
  const discard = () => {
    clearDraft(key);
    setStoredDraft(null);
    setAnnouncement(t("draft.discarded"));
  };

  const index = STEPS.indexOf(step);
  const invalidSteps = new Set(Object.keys(errors).map(stepOfField));
  const showSave = Boolean(meta) || step === "courses" || step === "visuals";
  const canEditVisuals = Boolean(meta && meta.access !== "member");
  const errorCount = Object.keys(errors).filter((path) => stepOfField(path) === step).length;
  const publicPath = meta && meta.status === "active" ? pagePath("event", locale, { slug: meta.slug }) : null;

  return (
    <div className="mx-auto w-full max-w-5xl px-4 pt-6 pb-32 sm:pt-10">
      <p className="mb-2">
        <Link to={pagePath("myEvents", locale)} className="font-medium text-brand-800 text-sm hover:underline">
          <ArrowLeft className="mr-1 inline h-4 w-4" aria-hidden="true" />
          {t("myEvents.title")}
        </Link>
      </p>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="font-bold text-2xl text-ink-900 sm:text-3xl">
            {meta ? t("editor.editTitle", { name: meta.name }) : t("editor.newTitle")}
          </h1>
          {meta ? (
            <div className="mt-2">
              <StatusBadges event={meta} />
            </div>
          ) : (
            <p className="mt-1 text-ink-700">{t("editor.newLead")}</p>
          )}
        </div>
        {publicPath ? (
          <Link to={publicPath} className={SECONDARY_BUTTON}>
            <ExternalLink className="h-4 w-4" aria-hidden="true" />
            {t("editor.viewPage")}
          </Link>
        ) : null}
      </header>

      <div className="mt-4 space-y-3">
        {storedDraft ? (
          <DraftPrompt storedDraft={storedDraft} locale={locale} restore={restore} discard={discard} />
        ) : null}
        <EditorNotices meta={meta} requestSent={requestSent} emailVerified={emailVerified} locale={locale} />
      </div>

      <div className="mt-6">
        <StepIndicator current={step} visited={visited} invalid={invalidSteps} onSelect={goTo} />
      </div>
      <p className="sr-only" aria-live="polite" data-testid="step-announcement">
        {announcement}
      </p>

      <form noValidate onSubmit={onSubmit} className="mt-6" aria-labelledby="ef-step-heading">
        <h2
          id="ef-step-heading"
          ref={headingRef}
          tabIndex={-1}
          className="mb-4 font-bold text-ink-900 text-xl focus:outline-none focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700"
        >
          <span className="mr-2 font-semibold text-base text-ink-500">
            {t("steps.position", { n: index + 1, total: STEPS.length })}
          </span>
          {t(`steps.${step}`)}
        </h2>
        {step !== "visuals" ? <p className="mb-4 text-ink-500 text-sm">{t("form.requiredLegend")}</p> : null}
        {errorCount > 0 ? (
          <p
            role="alert"
            className="mb-4 flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900 text-sm"
            data-testid="error-summary"
          >
            <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            {t("form.errorCount", { count: errorCount })}
          </p>
        ) : null}

        <CurrentStep
          step={step}
          draft={draft}
          errors={errors}
          update={update}
          locale={locale}
          countries={countries}
          revision={revision}
          requestFocus={requestFocus}
          meta={meta}
          canEditVisuals={canEditVisuals}
          visuals={visuals}
          setVisuals={setVisuals}
        />

        {formError ? (
          <p
            role="alert"
            className="mt-6 flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900 text-sm"
          >
            <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            {formError}
          </p>
        ) : null}

        <EditorBottomBar
          step={step}
          meta={meta}
          dirty={dirty}
          showSave={showSave}
          saving={saving}
          goTo={goTo}
          save={save}
        />
      </form>

      {duplicates ? (
        <DuplicatesDialog duplicates={duplicates} locale={locale} setDuplicates={setDuplicates} save={save} />
      ) : null}

      {blocker.state === "blocked" ? <LeaveDialog blocker={blocker} /> : null}
    </div>
  );
}
