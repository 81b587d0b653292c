/**
 * How the admin's Users screen writes a member and their dates. Instants are shown as Paris days
 * and times on the server and in the browser alike (a member who signed in at 23:30 in Paris did
 * so that day, whatever the machine's time zone), so the two renders match.
 */
import type { Locale } from "../../../../shared/constants.ts";
import { formatCompactDate, formatLongDate } from "../../../../shared/dates.ts";
import { parisToday } from "../../../../shared/zoned-time.ts";
import type { AccountStatus } from "../../admin-users.contract.ts";

type Named = { id: number; firstName: string; lastName: string; pseudo: string; email: string; status: AccountStatus };
type Translate = (key: string, values?: Record<string, unknown>) => string;

/** "Camille Martin", else the pseudo, else the address; a deleted account by its number. */
export function memberName(user: Named, t: Translate): string {
  if (user.status === "deleted") return t("users.deletedName", { id: user.id });
  return `${user.firstName} ${user.lastName}`.trim() || user.pseudo || user.email;
}

const parisDay = (iso: string) => parisToday(new Date(iso));

/** "14/06/26" (French), "26-06-14" (English). */
export const compactDay = (iso: string, locale: Locale) => formatCompactDate(parisDay(iso), locale);

/** "samedi 14 juin 2026". */
export const longDay = (iso: string, locale: Locale) => formatLongDate(parisDay(iso), locale);

const CLOCKS = {
  fr: new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" }),
  en: new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" }),
};

/** "14:05", Paris time. */
export const clockTime = (iso: string, locale: Locale) => CLOCKS[locale].format(new Date(iso));

export const STATUS_STYLE: Record<AccountStatus, string> = {
  active: "bg-emerald-50 text-emerald-800",
  disabled: "bg-amber-50 text-amber-900",
  deleted: "bg-slate-100 text-ink-700",
};
