import { useEffect, useState } from "react";
import { useViewer } from "../../accounts/components/viewer.tsx";
import type { EventActions } from "../engagement.contract.ts";

/**
 * The member's access to an event on its page: from the loader when the page was rendered for them,
 * else (a member's copy of the shared page) from GET /api/user/action/{id} once the browser knows
 * who is signed in. Null for visitors and until the answer comes.
 */
export function useEventAccess(
  eventId: number,
  fromLoader: EventActions["access"] | null,
): EventActions["access"] | null {
  const viewer = useViewer();
  const [fetched, setFetched] = useState<{ eventId: number; access: EventActions["access"] } | null>(null);
  const needed = fromLoader === null && viewer.status === "member";
  useEffect(() => {
    if (!needed) return;
    let live = true;
    fetch(`/api/user/action/${eventId}`, { credentials: "same-origin", headers: { accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<EventActions>) : null))
      .then((answer) => {
        if (live && answer) setFetched({ eventId, access: answer.access });
      })
      .catch(() => {
        // The page stays as visitors see it; the next visit tries again.
      });
    return () => {
      live = false;
    };
  }, [needed, eventId]);
  if (fromLoader !== null) return fromLoader;
  return fetched?.eventId === eventId && viewer.status === "member" ? fetched.access : null;
}
