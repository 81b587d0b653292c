/**
 * The name of the contact card's "open" link, for visits without JavaScript (`?open=contact`): its
 * own module, since the event page's first load imports it (no zod, no component).
 */
export const CONTACT_ANCHOR = "contact";
