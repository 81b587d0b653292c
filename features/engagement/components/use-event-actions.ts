import { useCallback, useEffect, useState } from "react";
import { useViewer } from "../../identity/components/viewer.tsx";
import type { EventActions } from "../engagement.contract.ts";

/**
 * The signed-in member's state on an event page — access (organiser tools), favourite, planned
 * courses — from GET /api/user/action/{id} once the browser knows who is signed in (the page is the
 * same for everyone, decision 024). `access` prefers the loader's when the page was rendered for the
 * member. Null for visitors and until the answer comes.
 */
export function useEventActions(
  eventId: number,
  accessFromLoader: EventActions["access"] | null,
): {
  access: EventActions["access"] | null;
  actions: EventActions | null;
  update: (change: (current: EventActions) => EventActions) => void;
} {
  const viewer = useViewer();
  const [fetched, setFetched] = useState<EventActions | null>(null);
  const member = viewer.status === "member" ? viewer.user.id : null;
  useEffect(() => {
    if (member === null) return;
    let live = true;
    fetch(`/api/user/action/${eventId}`, { credentials: "same-origin", headers: { accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<EventActions>) : null))
      .then((answer) => {
        if (live && answer) setFetched(answer);
      })
      .catch(() => {
        // The page stays as visitors see it; the next visit tries again.
      });
    return () => {
      live = false;
    };
  }, [member, eventId]);
  const actions = member !== null && fetched?.eventId === eventId ? fetched : null;
  const update = useCallback((change: (current: EventActions) => EventActions) => {
    setFetched((current) => (current ? change(current) : current));
  }, []);
  return { access: accessFromLoader ?? actions?.access ?? null, actions, update };
}
