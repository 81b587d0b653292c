/**
 * Who a member is to the rest of the site: their role, the state of their e-mail address, and the
 * few fields the page shell and the features' components show about the signed-in visitor.
 * features/accounts' `Me` (the member's own account) carries all of these and more.
 */
import type { Locale } from "../../shared/constants.ts";

export const USER_ROLES = ["member", "organiser", "admin"] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const EMAIL_STATUSES = ["unverified", "pending_change", "verified"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** What the page shell needs about the visitor (header menu). */
export type SessionUser = {
  id: number;
  displayName: string;
  slug: string;
  role: UserRole;
  emailStatus: EmailStatus;
  photoUrl: string | null;
  firstName: string;
  locale: Locale;
};
