import { island } from "../../../shared/ui/island.tsx";

export { CONTACT_ANCHOR } from "../contact-anchor.ts";

const card = <div className="min-h-32 rounded-2xl border border-slate-200 bg-white shadow-sm" aria-hidden="true" />;

/*
 * The event page's organiser cards, out of its first load (decision 030): their forms run on the
 * form layer (Conform and the zod contracts), which the page's first load does without. Each is
 * server-rendered where the server renders it and live once near the viewport or the browser is idle.
 */

/** The organiser's tools (editors only): at the top of the page, so it loads at once. */
export const OrganizerToolsIsland = island(() => import("./OrganizerTools.tsx").then((m) => m.OrganizerTools));
export const ClaimEventIsland = island(() => import("./ClaimEvent.tsx").then((m) => m.ClaimEvent), {
  fallback: card,
});
export const InviteFriendsIsland = island(() => import("./InviteFriends.tsx").then((m) => m.InviteFriends), {
  fallback: card,
});
export const ContactOrganizerIsland = island(() => import("./ContactOrganizer.tsx").then((m) => m.ContactOrganizer), {
  fallback: card,
});
