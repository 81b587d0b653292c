import { MessageSquareDiff } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { DecisionDialog, type Pending, type QueueRequest, RequestRow } from "./admin/EventsManager.tsx";

/**
 * Changes other members proposed for this event, shown to its owner, organisers and admins on
 * the editor page: each with its field-by-field diff and accept / reject (with a message).
 */
export function EventRequests({ requests, locale }: { requests: QueueRequest[]; locale: "fr" | "en" }) {
  const { t } = useTranslation("editor");
  const revalidator = useRevalidator();
  const [pending, setPending] = useState<Pending | null>(null);
  if (requests.length === 0) return null;
  return (
    <section
      aria-labelledby="event-requests"
      className="mx-auto mt-6 w-full max-w-3xl rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-6"
      data-testid="event-requests"
    >
      <h2 id="event-requests" className="flex items-center gap-2 font-bold text-ink-900 text-lg">
        <MessageSquareDiff className="h-5 w-5 text-brand-700" aria-hidden="true" />
        {t("requests.heading", { count: requests.length })}
      </h2>
      <p className="mt-1 text-ink-700 text-sm">{t("requests.intro")}</p>
      <ul className="mt-4 space-y-3">
        {requests.map((item) => (
          <RequestRow key={item.requestId} item={item} locale={locale} onDecide={setPending} />
        ))}
      </ul>
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
    </section>
  );
}
