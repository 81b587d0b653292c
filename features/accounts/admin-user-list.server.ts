/**
 * The admin's member list (issue 28): search, filters, sorts and pages in one query, and the same
 * list exported whole as CSV or XLSX (platform/spreadsheet.server.ts neutralises formulas).
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { type Spreadsheet, toCsv, toXlsx } from "../../platform/spreadsheet.server.ts";
import type { EmailStatus, UserRole } from "../identity/identity.contract.ts";
import {
  type AccountStatus,
  ADMIN_USERS_EXPORT_MAX,
  ADMIN_USERS_PAGE_SIZE,
  type AdminUserFilters,
  type AdminUserRow,
  type AdminUserSort,
  type AdminUsersQuery,
} from "./admin-users.contract.ts";

type ListedRow = {
  id: number;
  email: string;
  email_status: EmailStatus;
  first_name: string;
  last_name: string;
  pseudo: string;
  role: UserRole;
  sports: string[];
  created_at: string | Date;
  last_login_at: string | Date | null;
  login_count: number;
  disabled_at: string | Date | null;
  deleted_at: string | Date | null;
  total: number;
};

/** Sign-in days are Paris days, as the admin reads them. */
const PARIS = "Europe/Paris";

const iso = (value: string | Date | null): string | null => (value ? new Date(value).toISOString() : null);

export const accountStatus = (row: { disabled_at: unknown; deleted_at: unknown }): AccountStatus =>
  row.deleted_at ? "deleted" : row.disabled_at ? "disabled" : "active";

/** The WHERE clause of the filters (always at least "not deleted" or a status). */
function whereOf(filters: AdminUserFilters): SQL {
  const conditions: SQL[] = [];
  if (filters.q) {
    const pattern = `%${filters.q.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`;
    conditions.push(
      sql`(lower(email) LIKE ${pattern} OR lower(first_name || ' ' || last_name) LIKE ${pattern}
           OR lower(last_name || ' ' || first_name) LIKE ${pattern} OR lower(pseudo) LIKE ${pattern})`,
    );
  }
  if (filters.role) conditions.push(sql`role = ${filters.role}`);
  if (filters.verified === "yes") conditions.push(sql`email_status = 'verified'`);
  if (filters.verified === "no") conditions.push(sql`email_status <> 'verified'`);
  if (filters.status === "active") conditions.push(sql`disabled_at IS NULL AND deleted_at IS NULL`);
  else if (filters.status === "disabled") conditions.push(sql`disabled_at IS NOT NULL AND deleted_at IS NULL`);
  else if (filters.status === "deleted") conditions.push(sql`deleted_at IS NOT NULL`);
  else conditions.push(sql`deleted_at IS NULL`);
  if (filters.sport) conditions.push(sql`${filters.sport} = ANY(sports)`);
  if (filters.never) conditions.push(sql`last_login_at IS NULL`);
  const loginDay = sql`(last_login_at AT TIME ZONE ${PARIS})::date`;
  if (filters.loginAfter) conditions.push(sql`${loginDay} >= ${filters.loginAfter}::date`);
  if (filters.loginBefore) conditions.push(sql`${loginDay} <= ${filters.loginBefore}::date`);
  return sql`WHERE ${sql.join(conditions, sql` AND `)}`;
}

const SORT_SQL: Record<AdminUserSort, SQL> = {
  name: sql`lower(first_name || ' ' || last_name)`,
  email: sql`lower(email)`,
  role: sql`role`,
  verified: sql`(email_status = 'verified')`,
  created: sql`created_at`,
  lastLogin: sql`last_login_at`,
  logins: sql`login_count`,
  status: sql`(CASE WHEN deleted_at IS NOT NULL THEN 2 WHEN disabled_at IS NOT NULL THEN 1 ELSE 0 END)`,
};

function orderOf(sort: AdminUserSort, dir: "asc" | "desc"): SQL {
  const direction = dir === "asc" ? sql`ASC` : sql`DESC`;
  // Members who never signed in come last either way; the id keeps pages stable.
  return sql`ORDER BY ${SORT_SQL[sort]} ${direction} NULLS LAST, id ${direction}`;
}

function rowOf(u: ListedRow): AdminUserRow {
  return {
    id: u.id,
    email: u.email,
    emailStatus: u.email_status,
    firstName: u.first_name,
    lastName: u.last_name,
    pseudo: u.pseudo,
    role: u.role,
    sports: u.sports ?? [],
    createdAt: iso(u.created_at) ?? "",
    lastLoginAt: iso(u.last_login_at),
    loginCount: u.login_count,
    status: accountStatus(u),
  };
}

async function select(db: Executor, query: AdminUsersQuery, limit: number, offset: number) {
  const found = await rows<ListedRow>(
    db,
    sql`SELECT id, email, email_status, first_name, last_name, pseudo, role, sports, created_at, last_login_at,
               login_count, disabled_at, deleted_at, count(*) OVER ()::int AS total
        FROM users ${whereOf(query)} ${orderOf(query.sort, query.dir)} LIMIT ${limit} OFFSET ${offset}`,
  );
  return { users: found.map(rowOf), total: found[0]?.total ?? 0 };
}

/** The exports' columns: stable names, one line per member. */
const EXPORT_HEADER = [
  "id",
  "email",
  "emailStatus",
  "firstName",
  "lastName",
  "pseudo",
  "role",
  "sports",
  "createdAt",
  "lastLoginAt",
  "loginCount",
  "status",
] as const;

function sheetOf(list: AdminUserRow[], dates: "iso" | "date"): Spreadsheet {
  const when = (value: string | null) => (value === null ? null : dates === "date" ? new Date(value) : value);
  return {
    header: EXPORT_HEADER,
    rows: list.map((u) => [
      u.id,
      u.email,
      u.emailStatus,
      u.firstName,
      u.lastName,
      u.pseudo,
      u.role,
      u.sports.join(" "),
      when(u.createdAt),
      when(u.lastLoginAt),
      u.loginCount,
      u.status,
    ]),
  };
}

export function adminUserList(db: Executor) {
  return {
    /** One page of 50 of the list as filtered and sorted. */
    async listUsers(query: AdminUsersQuery) {
      const list = await select(db, query, ADMIN_USERS_PAGE_SIZE, (query.page - 1) * ADMIN_USERS_PAGE_SIZE);
      return { ...list, page: query.page, pageSize: ADMIN_USERS_PAGE_SIZE };
    },

    /** The whole list as filtered and sorted (pages ignored), as a CSV text or an XLSX file. */
    async exportUsers(query: AdminUsersQuery, format: "csv" | "xlsx"): Promise<string | Buffer> {
      const { users } = await select(db, query, ADMIN_USERS_EXPORT_MAX, 0);
      return format === "csv" ? toCsv(sheetOf(users, "iso")) : toXlsx(sheetOf(users, "date"), "Membres");
    },
  };
}
