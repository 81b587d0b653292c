/**
 * The admin's Users screen (issue 28): the list's filters, sorts and page in the address (the same
 * names in GET /api/admin/users/{format?} and on /admin/utilisateurs), a member's detail, and the
 * actions' bodies. Pure and isomorphic: the page reads its address with readUserListQuery, the API
 * checks the same fields strictly with adminUsersQuerySchema (a wrong value is a 400, never ignored).
 */
import { z } from "zod";
import { SPORT_KEYS, type SportKey } from "../../shared/constants.ts";
import { isCalendarDay, text } from "../../shared/input.ts";
import { EMAIL_STATUSES, USER_ROLES, type UserRole } from "../identity/identity.contract.ts";
import { meSchema } from "./accounts.contract.ts";

export const ADMIN_USERS_PAGE_SIZE = 50;
/** An export carries at most this many members (the whole list of a large site, filtered). */
export const ADMIN_USERS_EXPORT_MAX = 50_000;

export const ADMIN_USER_SORTS = [
  "name",
  "email",
  "role",
  "verified",
  "created",
  "lastLogin",
  "logins",
  "status",
] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];
/** active: can sign in; disabled: by themselves or an admin; deleted: erased (decision 048), kept for its orders. */
export const ACCOUNT_STATUSES = ["active", "disabled", "deleted"] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export const VERIFIED_FILTERS = ["yes", "no"] as const;
export const ADMIN_USER_FORMATS = ["json", "csv", "xlsx"] as const;
/** What the list's bulk form may do to the members ticked. */
export const BULK_USER_ACTIONS = ["disable", "enable"] as const;
export type BulkUserAction = (typeof BULK_USER_ACTIONS)[number];

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(isCalendarDay);

/** GET /api/admin/users/{format?}: every filter optional; sort, direction and page defaulted. */
export const adminUsersQuerySchema = z.object({
  /** Part of a name, a pseudo or an e-mail address. */
  q: text().trim().max(100).optional(),
  role: z.enum(USER_ROLES).optional(),
  /** E-mail address verified (yes) or not (no: unverified, or a change waiting for its code). */
  verified: z.enum(VERIFIED_FILTERS).optional(),
  /** Without it: active and disabled accounts (the deleted ones only when asked). */
  status: z.enum(ACCOUNT_STATUSES).optional(),
  /** One of the sports in the member's profile. */
  sport: z.enum(SPORT_KEYS).optional(),
  /** "1": never signed in (the dates below then find nobody). */
  never: z.literal("1").optional(),
  /** Last sign-in on or after this day (Paris time). */
  loginAfter: day.optional(),
  /** Last sign-in on or before this day (Paris time). */
  loginBefore: day.optional(),
  sort: z.enum(ADMIN_USER_SORTS).default("created"),
  dir: z.enum(["asc", "desc"]).default("desc"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type AdminUsersQuery = z.output<typeof adminUsersQuerySchema>;
export type AdminUserFilters = Omit<AdminUsersQuery, "sort" | "dir" | "page">;

/** The filter fields, in the order of the address (the export links carry them). */
export const USER_FILTER_KEYS = [
  "q",
  "role",
  "verified",
  "status",
  "sport",
  "never",
  "loginAfter",
  "loginBefore",
] as const;

/**
 * The list's state from a page address: each field checked alone, a wrong one left out (an old
 * bookmark still opens the list), so the page never fails where the API would answer 400.
 */
export function readUserListQuery(params: URLSearchParams): AdminUsersQuery {
  const shape = adminUsersQuerySchema.shape;
  const pick = <K extends keyof typeof shape>(key: K) => {
    const raw = params.get(key);
    if (raw === null || raw === "") return undefined;
    const parsed = shape[key].safeParse(raw);
    return parsed.success ? (parsed.data as z.output<(typeof shape)[K]>) : undefined;
  };
  const q = pick("q");
  return {
    q: q || undefined,
    role: pick("role"),
    verified: pick("verified"),
    status: pick("status"),
    sport: pick("sport"),
    never: pick("never"),
    loginAfter: pick("loginAfter"),
    loginBefore: pick("loginBefore"),
    sort: pick("sort") ?? "created",
    dir: pick("dir") ?? "desc",
    page: pick("page") ?? 1,
  };
}

/** The filters as query parameters (empty ones left out), for the export links and the API. */
export function userFilterParams(filters: AdminUserFilters & { sort?: string; dir?: string }): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of [...USER_FILTER_KEYS, "sort", "dir"] as const) {
    const value = filters[key];
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  return params;
}

/** One line of the list (and of its exports). */
export const adminUserRowSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  emailStatus: z.enum(EMAIL_STATUSES),
  firstName: z.string(),
  lastName: z.string(),
  pseudo: z.string(),
  role: z.enum(USER_ROLES),
  sports: z.array(z.string()),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  loginCount: z.number().int(),
  status: z.enum(ACCOUNT_STATUSES),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUsersResponseSchema = z.object({
  users: z.array(adminUserRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminUsersPage = z.infer<typeof adminUsersResponseSchema>;

/** What other features keep of the member, as the admin's detail shows it (member-data-port.ts). */
export const memberOverviewSchema = z.object({
  events: z.array(
    z.object({
      id: z.number().int(),
      slug: z.string(),
      name: z.string(),
      startDate: z.string(),
      /** owner: listed it; organizer: proved they organise it. */
      role: z.enum(["owner", "organizer"]),
      status: z.string(),
    }),
  ),
  results: z.array(
    z.object({
      id: z.number().int(),
      event: z.object({ name: z.string(), slug: z.string(), date: z.string() }),
      course: z.object({ name: z.string(), distance: z.number().nullable() }),
      source: z.string(),
      status: z.string(),
      timeMs: z.number().int().nullable(),
      rank: z.number().int().nullable(),
    }),
  ),
  orders: z.array(
    z.object({
      uid: z.string(),
      createdAt: z.string(),
      productId: z.string(),
      amountCents: z.number().int(),
      status: z.string(),
      receiptNumber: z.string().nullable(),
    }),
  ),
  credits: z.number().int(),
});
export type MemberOverview = z.infer<typeof memberOverviewSchema>;

/** GET /api/admin/user/{id}: the member's account, their open sessions and what they did. */
export const adminUserDetailSchema = z.object({
  user: meSchema.extend({
    status: z.enum(ACCOUNT_STATUSES),
    disabledAt: z.string().nullable(),
    deletedAt: z.string().nullable(),
  }),
  sessions: z.array(
    z.object({
      createdAt: z.string(),
      lastSeenAt: z.string(),
      expiresAt: z.string(),
      persistent: z.boolean(),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
    }),
  ),
  overview: memberOverviewSchema,
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

/** POST /api/admin/user/{id}/role. */
export const roleBodySchema = z.object({ role: z.enum(USER_ROLES) });
export type RoleBody = { role: UserRole };

/** What a deletion did (DELETE /api/admin/user/{id}). */
export const deletionResponseSchema = z.object({
  ok: z.literal(true),
  /** Result lines kept without the member, orders kept for the accounts. */
  keptResults: z.number().int(),
  keptOrders: z.number().int(),
});

export type { SportKey };
