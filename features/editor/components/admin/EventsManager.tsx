import {
  CalendarPlus,
  CircleCheck,
  CircleOff,
  Eye,
  History,
  LoaderCircle,
  Pencil,
  Search,
  SearchCheck,
  ThumbsDown,
  ThumbsUp,
} from "lucide-react";
import { type ReactNode, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useRevalidator } from "react-router";
import { apiFetch } from "../../../../shared/api-client.ts";
import { formatCompactDate } from "../../../../shared/dates.ts";
import { pagePath } from "../../../../shared/i18n/pages.ts";
import { cx } from "../../../../shared/ui/cx.ts";
import { Dialog } from "../../../../shared/ui/Dialog.tsx";
import {
  DANGER_BUTTON,
  FieldError,
  FormError,
  INPUT_CLASS,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
  TextAreaField,
} from "../../../../shared/ui/fields.tsx";
import { showToast } from "../../../../shared/ui/lazy-toasts.tsx";
import { LINK_BUTTON } from "../controls.tsx";
import { StatusBadges } from "../StatusBadges.tsx";
import { errorMessageOf } from "../upload.ts";
import { fieldLabel, formatValue } from "./diff-format.ts";

export const QUEUES = ["pending", "to_check", "requests"] as const;
export type Queue = (typeof QUEUES)[number];

export type QueueEvent = {
  eventId: number;
  slug: string;
  name: string;
  startDate: string;
  city: string | null;
  status: string;
  checkStatus: string;
  ownerId: number | null;
  createdAt: string;
};
export type QueueRequest = {
  requestId: number;
  eventId: number;
  userId: number;
  name: string;
  slug: string;
  createdAt: string;
};

type Props = {
  locale: "fr" | "en";
  queue: Queue;
  q: string;
  page: number;
  total: number;
  items: (QueueEvent | QueueRequest)[];
};

export type Pending = {
  kind: "validate" | "deactivate" | "check" | "accept" | "reject";
  title: string;
  /** Calls the API with the message typed. */
  run: (message: string) => Promise<Response>;
  done: string;
};

const PAGE_SIZE = 30;

/** The admin's events manager: three queues, a search, and a decision per row. */
export function EventsManager({ locale, queue, q, page, total, items }: Props) {
  const { t } = useTranslation("editor");
  const revalidator = useRevalidator();
  const [pending, setPending] = useState<Pending | null>(null);
  const base = pagePath("adminEvents", locale);
  const href = (params: Record<string, string | number | undefined>) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "" && v !== 1) search.set(k, String(v));
    const text = search.toString();
    return text ? `${base}?${text}` : base;
  };
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div className="space-y-5">
      <nav aria-label={t("admin.queuesLabel")} className="flex gap-1 overflow-x-auto border-slate-200 border-b">
        {QUEUES.map((name) => (
          <Link
            key={name}
            to={href({ queue: name === "pending" ? undefined : name, q })}
            aria-current={name === queue ? "page" : undefined}
            className={cx(
              "whitespace-nowrap rounded-t-lg border-b-2 px-3 py-2 font-semibold text-sm",
              name === queue ? "border-brand-700 text-brand-700" : "border-transparent text-ink-700 hover:text-ink-900",
            )}
          >
            {t(`admin.queue.${name}`)}
          </Link>
        ))}
      </nav>

      <Form method="get" action={base} role="search">
        {queue !== "pending" ? <input type="hidden" name="queue" value={queue} /> : null}
        <label htmlFor="admin-events-q" className="mb-1 block font-medium text-ink-900 text-sm">
          {t("admin.search")}
        </label>
        <div className="flex gap-2">
          <input
            id="admin-events-q"
            name="q"
            type="search"
            defaultValue={q}
            className={`${INPUT_CLASS} min-w-0 flex-1`}
          />
          <button type="submit" className={SECONDARY_BUTTON}>
            <Search className="h-4 w-4" aria-hidden="true" />
            {t("admin.searchButton")}
          </button>
        </div>
      </Form>

      <p className="text-ink-700 text-sm" aria-live="polite">
        {t("admin.count", { count: total })}
      </p>

      {items.length === 0 ? (
        <p className="rounded-xl border border-slate-300 border-dashed bg-white p-6 text-center text-ink-700">
          {t("admin.empty")}
        </p>
      ) : (
        <ul className="space-y-3">
          {items.map((item) =>
            "requestId" in item ? (
              <RequestRow key={item.requestId} item={item} locale={locale} onDecide={setPending} />
            ) : (
              <EventRow key={item.eventId} item={item} queue={queue} locale={locale} onDecide={setPending} />
            ),
          )}
        </ul>
      )}

      {pages > 1 ? (
        <nav aria-label={t("admin.pagination")} className="flex items-center justify-between gap-2">
          {page > 1 ? (
            <Link
              className={SECONDARY_BUTTON}
              to={href({ queue: queue === "pending" ? undefined : queue, q, page: page - 1 })}
            >
              {t("form.previous")}
            </Link>
          ) : (
            <span />
          )}
          <span className="text-ink-700 text-sm">{t("admin.page", { page, pages })}</span>
          {page < pages ? (
            <Link
              className={SECONDARY_BUTTON}
              to={href({ queue: queue === "pending" ? undefined : queue, q, page: page + 1 })}
            >
              {t("form.next")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}

      {pending ? (
        <DecisionDialog
          pending={pending}
          onClose={() => setPending(null)}
          onDone={() => {
            setPending(null);
            void showToast("success", pending.done);
            void revalidator.revalidate();
          }}
        />
      ) : null}
    </div>
  );
}

export function DecisionDialog({
  pending,
  onClose,
  onDone,
}: {
  pending: Pending;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation("editor");
  const id = useId();
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const danger = pending.kind === "deactivate" || pending.kind === "reject";
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    const response = await pending.run(message.trim()).catch(() => null);
    setBusy(false);
    if (!response?.ok) {
      setError((response && (await errorMessageOf(response))) ?? t("common:errors.generic"));
      return;
    }
    onDone();
  };
  return (
    <Dialog
      title={pending.title}
      onClose={onClose}
      actions={
        <>
          <button type="button" className={SECONDARY_BUTTON} onClick={onClose}>
            {t("form.cancel")}
          </button>
          <button
            type="button"
            className={danger ? DANGER_BUTTON : PRIMARY_BUTTON}
            onClick={confirm}
            disabled={busy}
            data-testid="confirm-decision"
          >
            {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden="true" /> : null}
            {t(`admin.confirm.${pending.kind}`)}
          </button>
        </>
      }
    >
      {pending.kind === "check" ? (
        <FormError message={error} />
      ) : (
        <TextAreaField
          id={id}
          label={t("admin.message")}
          hint={t("admin.messageHint")}
          error={error}
          rows={3}
          value={message}
          maxLength={2000}
          onChange={(e) => setMessage(e.target.value)}
        />
      )}
    </Dialog>
  );
}

const post = (url: string, body?: unknown) => apiFetch(url, { method: "POST", body: JSON.stringify(body ?? {}) });

function EventRow({
  item,
  queue,
  locale,
  onDecide,
}: {
  item: QueueEvent;
  queue: Queue;
  locale: "fr" | "en";
  onDecide: (pending: Pending) => void;
}) {
  const { t } = useTranslation("editor");
  const [historyOpen, setHistoryOpen] = useState(false);
  const [copy, setCopy] = useState<{ id: number } | null>(null);
  const [copying, setCopying] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const copyNext = async () => {
    setCopying(true);
    setError(undefined);
    const response = await post(`/api/admin/events/${item.eventId}/copy`).catch(() => null);
    setCopying(false);
    if (!response?.ok) {
      setError((response && (await errorMessageOf(response))) ?? t("common:errors.generic"));
      return;
    }
    const body = (await response.json()) as { id: number };
    setCopy(body);
    void showToast("success", t("admin.copied"));
  };
  const statusCall = (type: string) => (message: string) =>
    post(`/api/event/${item.eventId}/status/${type}`, message ? { message } : {});
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="admin-event">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 className="min-w-0 font-bold text-ink-900 text-lg">{item.name}</h2>
        <StatusBadges event={{ ...item, cancelled: false, postponed: false }} />
      </div>
      <p className="mt-1 text-ink-700 text-sm">
        {[formatCompactDate(item.startDate, locale), item.city].filter(Boolean).join(" · ")}
        {" · "}
        {t("admin.listedOn", { date: formatCompactDate(item.createdAt.slice(0, 10), locale) })}
      </p>
      <div className="mt-3 flex flex-wrap gap-2 border-slate-100 border-t pt-3">
        {queue === "pending" ? (
          <button
            type="button"
            className={PRIMARY_BUTTON}
            onClick={() =>
              onDecide({
                kind: "validate",
                title: t("admin.validateTitle", { name: item.name }),
                run: statusCall("validate"),
                done: t("admin.validated", { name: item.name }),
              })
            }
          >
            <CircleCheck className="h-4 w-4" aria-hidden="true" />
            {t("admin.validate")}
            <span className="sr-only"> {item.name}</span>
          </button>
        ) : (
          <button
            type="button"
            className={PRIMARY_BUTTON}
            onClick={() =>
              onDecide({
                kind: "check",
                title: t("admin.checkTitle", { name: item.name }),
                run: statusCall("check"),
                done: t("admin.checked", { name: item.name }),
              })
            }
          >
            <SearchCheck className="h-4 w-4" aria-hidden="true" />
            {t("admin.check")}
            <span className="sr-only"> {item.name}</span>
          </button>
        )}
        <button
          type="button"
          className={SECONDARY_BUTTON}
          onClick={() =>
            onDecide({
              kind: "deactivate",
              title: t("admin.deactivateTitle", { name: item.name }),
              run: statusCall("deactivate"),
              done: t("admin.deactivated", { name: item.name }),
            })
          }
        >
          <CircleOff className="h-4 w-4" aria-hidden="true" />
          {t("admin.deactivate")}
          <span className="sr-only"> {item.name}</span>
        </button>
        <Link to={pagePath("eventEdit", locale, { id: item.eventId })} className={LINK_BUTTON}>
          <Pencil className="h-4 w-4" aria-hidden="true" />
          {t("admin.open")}
          <span className="sr-only"> {item.name}</span>
        </Link>
        <button
          type="button"
          className={LINK_BUTTON}
          aria-expanded={historyOpen}
          onClick={() => setHistoryOpen((open) => !open)}
        >
          <History className="h-4 w-4" aria-hidden="true" />
          {t("admin.history")}
          <span className="sr-only"> {item.name}</span>
        </button>
        <button type="button" className={LINK_BUTTON} onClick={copyNext} disabled={copying}>
          <CalendarPlus className="h-4 w-4" aria-hidden="true" />
          {t("admin.copy")}
          <span className="sr-only"> {item.name}</span>
        </button>
      </div>
      {copy ? (
        <p className="mt-2 text-sm" role="status">
          {t("admin.copied")}{" "}
          <Link to={pagePath("eventEdit", locale, { id: copy.id })} className="font-semibold text-brand-800 underline">
            {t("admin.openCopy")}
          </Link>
        </p>
      ) : null}
      <FieldError id={`admin-event-${item.eventId}-error`} message={error} />
      {historyOpen ? <HistoryList eventId={item.eventId} locale={locale} /> : null}
    </li>
  );
}

type HistoryEntry = {
  id: number;
  type: string;
  data: Record<string, unknown> | null;
  userId: number | null;
  at: string;
};

function HistoryList({ eventId, locale }: { eventId: number; locale: "fr" | "en" }) {
  const { t } = useTranslation("editor");
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    apiFetch(`/api/event/${eventId}/history`)
      .then(async (response) => {
        if (!response.ok) throw new Error((await errorMessageOf(response)) ?? "");
        const body = (await response.json()) as { history: HistoryEntry[] };
        if (live) setEntries(body.history);
      })
      .catch((e: Error) => live && setError(e.message || t("common:errors.generic")));
    return () => {
      live = false;
    };
  }, [eventId, t]);
  if (error) return <FieldError id={`history-${eventId}-error`} message={error} />;
  if (!entries) {
    return (
      <p className="mt-3 flex items-center gap-2 text-ink-700 text-sm">
        <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden="true" />
        {t("admin.loading")}
      </p>
    );
  }
  return (
    <ol className="mt-3 space-y-1 rounded-lg bg-slate-50 p-3 text-sm" aria-label={t("admin.historyLabel")}>
      {entries.length === 0 ? <li className="text-ink-700">{t("admin.noHistory")}</li> : null}
      {entries.map((entry) => (
        <li key={entry.id} className="flex flex-wrap gap-x-2">
          <time dateTime={entry.at} className="text-ink-500">
            {formatCompactDate(entry.at.slice(0, 10), locale)} {entry.at.slice(11, 16)}
          </time>
          <span className="font-medium text-ink-900">
            {t(`admin.historyType.${entry.type}`, { defaultValue: entry.type })}
          </span>
          {typeof entry.data?.message === "string" && entry.data.message ? (
            <span className="text-ink-700">« {entry.data.message} »</span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

type Change = { field: string; before: unknown; after: unknown };

export function RequestRow({
  item,
  locale,
  onDecide,
}: {
  item: QueueRequest;
  locale: "fr" | "en";
  onDecide: (pending: Pending) => void;
}) {
  const { t } = useTranslation("editor");
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const load = async () => {
    if (changes) {
      setChanges(null);
      return;
    }
    setLoading(true);
    const response = await apiFetch(`/api/admin/event-request/${item.requestId}`).catch(() => null);
    setLoading(false);
    if (!response?.ok) {
      setError((response && (await errorMessageOf(response))) ?? t("common:errors.generic"));
      return;
    }
    setChanges(((await response.json()) as { request: { changes: Change[] } }).request.changes);
  };
  const decide = (decision: "accept" | "reject") =>
    onDecide({
      kind: decision,
      title: t(decision === "accept" ? "admin.acceptTitle" : "admin.rejectTitle", { name: item.name }),
      run: (message) => post(`/api/admin/event-request/${item.requestId}/${decision}`, message ? { message } : {}),
      done: t(decision === "accept" ? "admin.accepted" : "admin.rejected", { name: item.name }),
    });
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="admin-request">
      <h2 className="font-bold text-ink-900 text-lg">{item.name}</h2>
      <p className="mt-1 text-ink-700 text-sm">
        {t("admin.requestedOn", {
          date: formatCompactDate(item.createdAt.slice(0, 10), locale),
          user: item.userId,
        })}
      </p>
      <div className="mt-3 flex flex-wrap gap-2 border-slate-100 border-t pt-3">
        <button type="button" className={SECONDARY_BUTTON} onClick={load} aria-expanded={Boolean(changes)}>
          {loading ? (
            <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <Eye className="h-4 w-4" aria-hidden="true" />
          )}
          {changes ? t("admin.hideChanges") : t("admin.showChanges")}
        </button>
        <button type="button" className={PRIMARY_BUTTON} onClick={() => decide("accept")}>
          <ThumbsUp className="h-4 w-4" aria-hidden="true" />
          {t("admin.accept")}
          <span className="sr-only"> {item.name}</span>
        </button>
        <button type="button" className={SECONDARY_BUTTON} onClick={() => decide("reject")}>
          <ThumbsDown className="h-4 w-4" aria-hidden="true" />
          {t("admin.reject")}
          <span className="sr-only"> {item.name}</span>
        </button>
      </div>
      <FieldError id={`request-${item.requestId}-error`} message={error} />
      {changes ? <ChangesTable changes={changes} locale={locale} /> : null}
    </li>
  );
}

/** Before and after, field by field; on phones each field is a small card. */
export function ChangesTable({ changes, locale }: { changes: Change[]; locale: "fr" | "en" }) {
  const { t } = useTranslation("editor");
  if (!changes.length) return <p className="mt-3 text-ink-700 text-sm">{t("admin.noChanges")}</p>;
  const cell = (children: ReactNode, label: string) => (
    <td className="block whitespace-pre-line break-words px-0 py-1 align-top sm:table-cell sm:px-3 sm:py-2">
      <span className="font-semibold text-ink-500 text-xs sm:hidden">{label} : </span>
      {children}
    </td>
  );
  return (
    <table className="mt-3 w-full text-left text-sm" data-testid="request-diff">
      <caption className="sr-only">{t("admin.diffCaption")}</caption>
      <thead className="hidden sm:table-header-group">
        <tr className="border-slate-200 border-b">
          <th scope="col" className="px-3 py-2">
            {t("admin.diffField")}
          </th>
          <th scope="col" className="px-3 py-2">
            {t("admin.diffBefore")}
          </th>
          <th scope="col" className="px-3 py-2">
            {t("admin.diffAfter")}
          </th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => {
          let before = formatValue(change.field, change.before, t, locale);
          let after = formatValue(change.field, change.after, t, locale);
          let note: string | null = null;
          // Courses: only the lines that differ, and how many stayed the same.
          if (change.field === "courses") {
            const a = before.split("\n");
            const b = after.split("\n");
            const same = a.filter((line) => b.includes(line));
            const reducedBefore = a.filter((line) => !same.includes(line)).join("\n");
            const reducedAfter = b.filter((line) => !same.includes(line)).join("\n");
            // A change the summary line does not show (description, equipment…): say so.
            if (reducedBefore || reducedAfter) {
              before = reducedBefore || "—";
              after = reducedAfter || "—";
              if (same.length) note = t("admin.unchangedCourses", { count: same.length });
            } else {
              note = t("admin.courseDetailsChanged");
            }
          }
          return (
            <tr key={change.field} className="block border-slate-100 border-b py-2 sm:table-row sm:py-0">
              <th scope="row" className="block px-0 py-1 font-semibold text-ink-900 sm:table-cell sm:px-3 sm:py-2">
                {fieldLabel(change.field, t)}
                {note ? <span className="block font-normal text-ink-500 text-xs">{note}</span> : null}
              </th>
              {cell(
                <del className="rounded bg-red-50 px-1 text-red-900 no-underline">{before}</del>,
                t("admin.diffBefore"),
              )}
              {cell(
                <ins className="rounded bg-emerald-50 px-1 font-medium text-emerald-950 no-underline">{after}</ins>,
                t("admin.diffAfter"),
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
