import { Flag, Megaphone, Trash2 } from "lucide-react";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { callApi } from "../../../shared/api-client.ts";
import { loginHref } from "../../../shared/i18n/pages.ts";
import { cx } from "../../../shared/ui/cx.ts";
import { FormError, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { useViewer } from "../../identity/components/viewer.tsx";
import { type CommentPage, type CommentView, WALL_MAX } from "../comments.contract.ts";
import { useCommentModeration } from "./moderation.tsx";

/** How often the wall asks for new messages while the tab is visible. */
export const WALL_REFRESH_MS = 20_000;

const TINTS = [
  "bg-amber-50 ring-amber-200",
  "bg-sky-50 ring-sky-200",
  "bg-emerald-50 ring-emerald-200",
  "bg-rose-50 ring-rose-200",
  "bg-violet-50 ring-violet-200",
];
const ICON_BUTTON =
  "rounded-md p-1 text-ink-500 hover:bg-white hover:text-ink-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700";

/**
 * The encouragement wall: short cheers for an edition's runners, visible to all, posted by verified
 * members, refreshed every 20 s while the page is visible (and at once after posting).
 */
export function EncouragementWall({
  eventId,
  locale,
  eventPath,
  canModerate,
}: {
  eventId: number;
  locale: "fr" | "en";
  eventPath: string;
  canModerate: boolean;
}) {
  const { t } = useTranslation("community");
  const viewer = useViewer();
  const user = viewer.status === "member" ? viewer.user : null;
  const [messages, setMessages] = useState<CommentView[] | null>(null);
  const [total, setTotal] = useState(0);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const refresh = useCallback(async () => {
    const result = await callApi<CommentPage>(`/api/comments/wall/${eventId}`);
    if (result.ok) {
      setMessages(result.data.comments.filter((c) => !c.deleted));
      setTotal(result.data.total);
    }
  }, [eventId]);

  useEffect(() => {
    void refresh();
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") void refresh();
    }, WALL_REFRESH_MS);
    const onVisible = () => {
      if (document.visibilityState === "visible") void refresh();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [refresh]);

  const moderation = useCommentModeration(() => void refresh());

  async function send(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    const result = await callApi(`/api/comment/wall/${eventId}`, {
      method: "POST",
      body: JSON.stringify({ body: text }),
    });
    setPending(false);
    if (!result.ok) {
      setError(result.message ?? t("comments.loadError"));
      return;
    }
    setError(null);
    setText("");
    void showToast("success", t("wall.sent"));
    await refresh();
  }

  return (
    <section
      aria-labelledby="wall-heading"
      className="overflow-hidden rounded-2xl border border-amber-200 bg-gradient-to-br from-amber-50 via-white to-sky-50 p-4 shadow-sm sm:p-5"
      data-testid="wall"
    >
      <h2 id="wall-heading" className="flex items-center gap-2 font-bold text-ink-900 text-lg">
        <Megaphone className="h-5 w-5 text-amber-600" aria-hidden="true" />
        {t("wall.heading")}
      </h2>
      <p className="mt-1 text-ink-700 text-sm">{t("wall.intro")}</p>

      {user && user.emailStatus !== "unverified" && (
        <form onSubmit={send} className="mt-3 space-y-2" data-testid="wall-form">
          <label htmlFor="wall-message" className="sr-only">
            {t("wall.label")}
          </label>
          <div className="flex gap-2">
            <input
              id="wall-message"
              className="min-w-0 flex-1 rounded-full border border-slate-300 bg-white px-4 py-2.5 text-base text-ink-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
              maxLength={WALL_MAX}
              required
              value={text}
              placeholder={t("wall.placeholder")}
              onChange={(event) => setText(event.currentTarget.value)}
              aria-describedby="wall-counter"
            />
            <button
              type="submit"
              className={PRIMARY_BUTTON.replace("rounded-lg", "rounded-full")}
              disabled={pending || !text.trim()}
            >
              {t("wall.send")}
            </button>
          </div>
          <p id="wall-counter" className="text-right text-ink-500 text-xs tabular-nums">
            {t("comments.counter", { count: text.length, max: WALL_MAX })}
          </p>
          <FormError message={error} />
        </form>
      )}
      {viewer.status === "anonymous" && (
        <a className={cx(SECONDARY_BUTTON, "mt-3")} href={loginHref(locale, eventPath)}>
          {t("wall.signIn")}
        </a>
      )}
      {user && user.emailStatus === "unverified" && <p className="mt-3 text-ink-700 text-sm">{t("rating.verify")}</p>}

      <div className="mt-4" aria-live="polite">
        {messages && messages.length === 0 && <p className="text-ink-700 text-sm">{t("wall.empty")}</p>}
        {messages && messages.length > 0 && (
          <>
            <p className="mb-2 font-semibold text-ink-700 text-xs uppercase tracking-wide">
              {t("wall.count", { count: total })}
            </p>
            <ul className="flex flex-col gap-2" data-testid="wall-messages">
              {messages.map((message) => {
                const name = message.author?.name ?? t("comments.formerMember");
                const own = user !== null && message.author?.id === user.id;
                return (
                  <li
                    key={message.id}
                    className={cx("rounded-2xl px-3 py-2 ring-1", TINTS[message.id % TINTS.length])}
                    data-testid="wall-message"
                  >
                    <p className="break-words text-ink-900">{message.body}</p>
                    <div className="mt-1 flex items-center justify-between gap-2">
                      <span className="font-semibold text-ink-700 text-xs">— {name}</span>
                      {user && (
                        <span className="flex gap-0.5">
                          {(own || canModerate) && (
                            <button type="button" className={ICON_BUTTON} onClick={() => moderation.askDelete(message)}>
                              <Trash2 className="h-4 w-4" aria-hidden="true" />
                              <span className="sr-only">{t("wall.delete", { name })}</span>
                            </button>
                          )}
                          {!own && (
                            <button type="button" className={ICON_BUTTON} onClick={() => moderation.askReport(message)}>
                              <Flag className="h-4 w-4" aria-hidden="true" />
                              <span className="sr-only">{t("wall.report", { name })}</span>
                            </button>
                          )}
                        </span>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </div>
      {moderation.dialogs}
    </section>
  );
}
