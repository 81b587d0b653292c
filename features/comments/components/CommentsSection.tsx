import { Flag, MessageSquare, Pencil, Reply, Trash2 } from "lucide-react";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { callApi } from "../../../shared/api-client.ts";
import { loginHref, pagePath } from "../../../shared/i18n/pages.ts";
import { FormError, INPUT_CLASS, LABEL_CLASS, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { Stars } from "../../../shared/ui/Stars.tsx";
import { useViewer } from "../../identity/components/viewer.tsx";
import type { SessionUser } from "../../identity/identity.contract.ts";
import { COMMENT_MAX, type CommentPage, type CommentView, type ReplyView } from "../comments.contract.ts";
import { useCommentModeration } from "./moderation.tsx";

type Posted = { comment: (ReplyView & { parentId: number | null }) | null };

const LINK_BUTTON =
  "inline-flex items-center gap-1 rounded-md px-1.5 py-1 font-medium text-ink-700 text-sm hover:bg-slate-100 hover:text-ink-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700";

/** "12 juin 2026" in the page's language. */
function formatWhen(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "fr-FR", { dateStyle: "medium" }).format(new Date(iso));
}

/** The textarea of a comment, a reply or an edit, with its character counter. */
function CommentForm({
  label,
  submit,
  initial = "",
  withRating = false,
  onSubmit,
  onCancel,
  autoFocus = false,
}: {
  label: string;
  submit: string;
  initial?: string;
  withRating?: boolean;
  onSubmit: (body: string, rating: number | null) => Promise<string | null>;
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation("community");
  const id = useId();
  const [body, setBody] = useState(initial);
  const [rating, setRating] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function send(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    const failure = await onSubmit(body, rating);
    setPending(false);
    setError(failure);
    if (!failure && !onCancel) {
      setBody("");
      setRating(null);
    }
  }

  return (
    <form onSubmit={send} className="space-y-2" data-testid="comment-form">
      <label htmlFor={`${id}-body`} className={LABEL_CLASS}>
        {label}
      </label>
      <textarea
        id={`${id}-body`}
        className={INPUT_CLASS}
        rows={3}
        required
        maxLength={COMMENT_MAX}
        value={body}
        placeholder={t("comments.placeholder")}
        onChange={(event) => setBody(event.currentTarget.value)}
        aria-describedby={`${id}-counter`}
        // biome-ignore lint/a11y/noAutofocus: opened on purpose by the member (reply, edit).
        autoFocus={autoFocus}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        {withRating ? (
          <label className="flex items-center gap-2 text-ink-700 text-sm">
            {t("comments.ratingLabel")}
            <select
              className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-ink-900 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
              value={rating ?? ""}
              onChange={(event) => setRating(event.currentTarget.value ? Number(event.currentTarget.value) : null)}
            >
              <option value="">{t("comments.noRating")}</option>
              {[5, 4, 3, 2, 1].map((n) => (
                <option key={n} value={n}>
                  {t("rating.star", { count: n })}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span />
        )}
        <span id={`${id}-counter`} className="text-ink-500 text-xs tabular-nums">
          {t("comments.counter", { count: body.length, max: COMMENT_MAX })}
        </span>
      </div>
      <FormError message={error} />
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel && (
          <button type="button" className={SECONDARY_BUTTON} onClick={onCancel}>
            {t("comments.cancel")}
          </button>
        )}
        <button type="submit" className={PRIMARY_BUTTON} disabled={pending || !body.trim()}>
          {submit}
        </button>
      </div>
    </form>
  );
}

type ItemProps = {
  comment: CommentView | ReplyView;
  locale: "fr" | "en";
  user: SessionUser | null;
  canModerate: boolean;
  canWrite: boolean;
  /** The edition this page is about: comments written for another one say which. */
  eventId?: number;
  onReply?: () => void;
  onEdit: (body: string) => Promise<string | null>;
  onDelete: () => void;
  onReport: () => void;
};

function CommentItem({
  comment,
  locale,
  user,
  canModerate,
  canWrite,
  eventId,
  onReply,
  onEdit,
  onDelete,
  onReport,
}: ItemProps) {
  const { t } = useTranslation("community");
  const [editing, setEditing] = useState(false);
  const name = comment.author?.name ?? t("comments.formerMember");
  if (comment.deleted) {
    return <p className="text-ink-500 text-sm italic">{t("comments.deletedPlaceholder")}</p>;
  }
  const own = user !== null && comment.author?.id === user.id;
  return (
    <div data-testid="comment" data-comment-id={comment.id}>
      <div className="flex items-start gap-3">
        <span
          className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800 text-sm"
          aria-hidden="true"
        >
          {comment.author ? name.charAt(0).toUpperCase() : "?"}
        </span>
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
            <span className="font-semibold text-ink-900">{name}</span>
            <time dateTime={comment.createdAt} className="text-ink-500">
              {formatWhen(comment.createdAt, locale)}
            </time>
            {comment.editedAt && <span className="text-ink-500">· {t("comments.edited")}</span>}
            {comment.edition && comment.edition.id !== eventId && (
              <a
                href={pagePath("event", locale, { slug: comment.edition.slug })}
                className="font-medium text-brand-700 text-xs underline-offset-2 hover:underline"
                data-testid="comment-edition"
              >
                {t("comments.edition", { year: comment.edition.startDate.slice(0, 4) })}
              </a>
            )}
          </p>
          {comment.rating !== null && (
            <p className="mt-0.5 flex items-center gap-1.5 text-ink-700 text-xs">
              <Stars value={comment.rating} className="h-3.5 w-3.5" />
              {t("comments.ratedWith", { value: comment.rating })}
            </p>
          )}
          {editing ? (
            <div className="mt-2">
              <CommentForm
                label={t("comments.editLabel")}
                submit={t("comments.save")}
                initial={comment.body}
                autoFocus
                onCancel={() => setEditing(false)}
                onSubmit={async (body) => {
                  const failure = await onEdit(body);
                  if (!failure) setEditing(false);
                  return failure;
                }}
              />
            </div>
          ) : (
            <p className="mt-1 whitespace-pre-line break-words text-ink-800">{comment.body}</p>
          )}
          {!editing && user && (
            <ul className="mt-1 flex flex-wrap gap-1" aria-label={t("comments.actionsFor", { name })}>
              {onReply && canWrite && (
                <li>
                  <button type="button" className={LINK_BUTTON} onClick={onReply}>
                    <Reply className="h-4 w-4" aria-hidden="true" />
                    {t("comments.reply")}
                  </button>
                </li>
              )}
              {own && (
                <li>
                  <button type="button" className={LINK_BUTTON} onClick={() => setEditing(true)}>
                    <Pencil className="h-4 w-4" aria-hidden="true" />
                    {t("comments.edit")}
                  </button>
                </li>
              )}
              {(own || canModerate) && (
                <li>
                  <button type="button" className={LINK_BUTTON} onClick={onDelete}>
                    <Trash2 className="h-4 w-4" aria-hidden="true" />
                    {t("comments.delete")}
                  </button>
                </li>
              )}
              {!own && (
                <li>
                  <button type="button" className={LINK_BUTTON} onClick={onReport}>
                    <Flag className="h-4 w-4" aria-hidden="true" />
                    {t("comments.report")}
                  </button>
                </li>
              )}
            </ul>
          )}
        </div>
      </div>
    </div>
  );
}

/** The comments of one event, as loaded and as changed by the member. */
export function CommentList({
  data,
  locale,
  user,
  canModerate,
  canWrite,
  onReply,
  onEdit,
  onDelete,
  onReport,
  replyingTo,
  replyForm,
  eventId,
}: {
  data: CommentView[];
  locale: "fr" | "en";
  user: SessionUser | null;
  canModerate: boolean;
  canWrite: boolean;
  onReply: (id: number) => void;
  onEdit: (comment: CommentView | ReplyView, body: string) => Promise<string | null>;
  onDelete: (comment: CommentView | ReplyView) => void;
  onReport: (comment: CommentView | ReplyView) => void;
  replyingTo: number | null;
  replyForm: (comment: CommentView) => React.ReactNode;
  /** The page's edition, when the list is its series' (comments of other editions say which). */
  eventId?: number;
}) {
  const common = { locale, user, canModerate, canWrite, eventId };
  return (
    <ol className="space-y-5" data-testid="comment-list">
      {data.map((comment) => (
        <li key={comment.id} className="border-slate-100 border-t pt-4 first:border-t-0 first:pt-0">
          <CommentItem
            comment={comment}
            {...common}
            onReply={() => onReply(comment.id)}
            onEdit={(body) => onEdit(comment, body)}
            onDelete={() => onDelete(comment)}
            onReport={() => onReport(comment)}
          />
          {(comment.replies.length > 0 || replyingTo === comment.id) && (
            <ol className="mt-3 ml-6 space-y-3 border-slate-200 border-l-2 pl-4 sm:ml-12">
              {comment.replies.map((reply) => (
                <li key={reply.id}>
                  <CommentItem
                    comment={reply}
                    {...common}
                    onReply={() => onReply(comment.id)}
                    onEdit={(body) => onEdit(reply, body)}
                    onDelete={() => onDelete(reply)}
                    onReport={() => onReport(reply)}
                  />
                </li>
              ))}
              {replyingTo === comment.id && <li>{replyForm(comment)}</li>}
            </ol>
          )}
        </li>
      ))}
    </ol>
  );
}

/**
 * The event page's comments: newest first, one level of replies, "more comments", and for
 * verified members the form, replies, edit, delete and report. Loaded from the API in the browser
 * (the page itself is the same for everyone).
 */
export function CommentsSection({
  event,
  today,
  locale,
  eventPath,
  canModerate,
}: {
  event: { id: number; startDate: string };
  today: string;
  locale: "fr" | "en";
  eventPath: string;
  /** The event's owner, organisers and admins delete any comment. */
  canModerate: boolean;
}) {
  const { t } = useTranslation("community");
  const viewer = useViewer();
  const user = viewer.status === "member" ? viewer.user : null;
  const [comments, setComments] = useState<CommentView[]>([]);
  const [state, setState] = useState<{ page: number; total: number; hasMore: boolean } | null>(null);
  const [failed, setFailed] = useState(false);
  const [replyingTo, setReplyingTo] = useState<number | null>(null);
  const started = event.startDate <= today;
  const canWrite = started && user !== null && user.emailStatus !== "unverified";
  const base = `/api/comments/event/${event.id}`;

  const load = useCallback(
    async (page: number) => {
      // The series' comments, each edition's marked: ratings stay per edition, comments do not.
      const result = await callApi<CommentPage>(`${base}?scope=series&page=${page}`);
      if (!result.ok) {
        setFailed(true);
        return;
      }
      setFailed(false);
      setComments((previous) => {
        if (page === 1) return result.data.comments;
        const seen = new Set(previous.map((c) => c.id));
        return [...previous, ...result.data.comments.filter((c) => !seen.has(c.id))];
      });
      setState({ page, total: result.data.total, hasMore: result.data.hasMore });
    },
    [base],
  );

  useEffect(() => {
    void load(1);
  }, [load]);

  const moderation = useCommentModeration((id) => {
    setComments((list) =>
      list
        .map((c) => (c.id === id ? { ...c, deleted: true, body: "", author: null } : c))
        .map((c) => ({ ...c, replies: c.replies.filter((r) => r.id !== id) }))
        .filter((c) => !(c.deleted && c.replies.length === 0)),
    );
    setState((s) => (s ? { ...s, total: Math.max(0, s.total - 1) } : s));
  });

  /** To this edition, or (replies, edits) to the edition the comment was written for. */
  async function post(body: string, extra: Record<string, unknown>, editionId = event.id): Promise<Posted | string> {
    const result = await callApi<Posted>(`/api/comment/event/${editionId}`, {
      method: "POST",
      body: JSON.stringify({ body, ...extra }),
    });
    return result.ok ? result.data : (result.message ?? t("comments.loadError"));
  }

  return (
    <section
      aria-labelledby="comments-heading"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      data-testid="comments"
    >
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="comments-heading" className="flex items-center gap-2 font-bold text-ink-900 text-lg">
          <MessageSquare className="h-5 w-5 text-brand-700" aria-hidden="true" />
          {t("comments.heading")}
        </h2>
        {state && <p className="text-ink-500 text-sm">{t("comments.count", { count: state.total })}</p>}
      </div>

      <div className="mt-3">
        {!started && <p className="text-ink-700 text-sm">{t("comments.notYet")}</p>}
        {started && viewer.status === "anonymous" && (
          <a className={SECONDARY_BUTTON} href={loginHref(locale, eventPath)}>
            {t("comments.signIn")}
          </a>
        )}
        {started && user && user.emailStatus === "unverified" && (
          <p className="text-ink-700 text-sm">{t("rating.verify")}</p>
        )}
        {canWrite && (
          <CommentForm
            label={t("comments.label")}
            submit={t("comments.post")}
            withRating
            onSubmit={async (body, rating) => {
              const answer = await post(body, rating ? { rating } : {});
              if (typeof answer === "string") return answer;
              if (answer.comment) {
                const created = answer.comment;
                setComments((list) => [{ ...created, replies: [] }, ...list]);
                setState((s) => (s ? { ...s, total: s.total + 1 } : s));
              }
              void showToast("success", t("comments.posted"));
              return null;
            }}
          />
        )}
      </div>

      <div className="mt-5" aria-live="polite" aria-busy={state === null && !failed}>
        {failed && <p className="text-red-800 text-sm">{t("comments.loadError")}</p>}
        {state === null && !failed && <p className="text-ink-500 text-sm">{t("comments.loading")}</p>}
        {state && comments.length === 0 && started && <p className="text-ink-700 text-sm">{t("comments.empty")}</p>}
        <CommentList
          eventId={event.id}
          data={comments}
          locale={locale}
          user={user}
          canModerate={canModerate}
          canWrite={canWrite}
          replyingTo={replyingTo}
          onReply={setReplyingTo}
          onDelete={moderation.askDelete}
          onReport={moderation.askReport}
          onEdit={async (comment, body) => {
            const answer = await post(body, { commentId: comment.id }, comment.targetId);
            if (typeof answer === "string") return answer;
            const edited = answer.comment;
            if (edited) {
              const apply = <T extends CommentView | ReplyView>(c: T): T =>
                c.id === edited.id ? { ...c, body: edited.body, editedAt: edited.editedAt } : c;
              setComments((list) => list.map((c) => ({ ...apply(c), replies: c.replies.map(apply) })));
            }
            void showToast("success", t("comments.saved"));
            return null;
          }}
          replyForm={(comment) => (
            <CommentForm
              label={t("comments.replyLabel", { name: comment.author?.name ?? t("comments.formerMember") })}
              submit={t("comments.replyPost")}
              autoFocus
              onCancel={() => setReplyingTo(null)}
              onSubmit={async (body) => {
                const answer = await post(body, { parentId: comment.id }, comment.targetId);
                if (typeof answer === "string") return answer;
                const created = answer.comment;
                if (created) {
                  setComments((list) =>
                    list.map((c) =>
                      c.id === comment.id
                        ? { ...c, replies: [...c.replies, { ...created, parentId: created.parentId ?? comment.id }] }
                        : c,
                    ),
                  );
                }
                setReplyingTo(null);
                void showToast("success", t("comments.posted"));
                return null;
              }}
            />
          )}
        />
        {state?.hasMore && (
          <button
            type="button"
            className={`${SECONDARY_BUTTON} mt-5 w-full`}
            onClick={() => void load(state.page + 1)}
            data-testid="more-comments"
          >
            {t("comments.more")}
          </button>
        )}
      </div>
      {moderation.dialogs}
    </section>
  );
}
