/**
 * Ready-made accounts for trying the site on the demo catalogue (decision 023): a member, an
 * organiser of a few demo events and an admin, with fixed addresses and passwords printed at start.
 * Made in development, and elsewhere only when DEMO_ACCOUNTS=1 asks for them: their passwords are
 * public, so a production site never gets them by default.
 */
import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import { eventOrganizers } from "../features/editor/editor.tables.ts";
import { events } from "../features/events/events.tables.ts";
import { users } from "../features/identity/identity.tables.ts";
import { hashPassword } from "../features/identity/secrets.server.ts";
import type { Db } from "../platform/db/client.server.ts";
import { pagePath } from "../shared/i18n/pages.ts";

export type DemoAccount = {
  role: "member" | "organiser" | "admin";
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  slug: string;
};

/** The same three on every machine. example.com is reserved: no mail ever reaches anybody. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    role: "member",
    email: "membre.demo@example.com",
    password: "demo-membre-2026",
    firstName: "Camille",
    lastName: "Membre",
    slug: "demo-camille-membre",
  },
  {
    role: "organiser",
    email: "organisateur.demo@example.com",
    password: "demo-organisateur-2026",
    firstName: "Olivier",
    lastName: "Organisateur",
    slug: "demo-olivier-organisateur",
  },
  {
    role: "admin",
    email: "admin.demo@example.com",
    password: "demo-admin-2026",
    firstName: "Alix",
    lastName: "Admin",
    slug: "demo-alix-admin",
  },
];

/** Demo events the organiser runs (and owns when nobody did). */
export const DEMO_ORGANISER_EVENTS = 3;

/**
 * Whether this start makes the demo accounts: DEMO_ACCOUNTS decides when set; otherwise in
 * development with a demo catalogue, never in production or tests.
 */
export function demoAccountsWanted(config: {
  NODE_ENV: string;
  DEMO_EVENTS: number;
  DEMO_ACCOUNTS?: boolean | undefined;
}): boolean {
  if (config.DEMO_ACCOUNTS !== undefined) return config.DEMO_ACCOUNTS;
  return config.NODE_ENV === "development" && config.DEMO_EVENTS > 0;
}

export type DemoAccountsReport = {
  accounts: (DemoAccount & { id: number; created: boolean })[];
  /** The organiser's events: name and slug. */
  events: { id: number; name: string; slug: string }[];
};

/**
 * Creates the demo accounts that are missing (an existing account of that address is left as it
 * is, password included) and gives the organiser the first upcoming active events of the catalogue.
 * Idempotent: later starts change nothing.
 */
export async function ensureDemoAccounts(db: Db, options: { now: Date }): Promise<DemoAccountsReport> {
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((account) => hashPassword(account.password)));
  return db.transaction(async (tx) => {
    const accounts: DemoAccountsReport["accounts"] = [];
    for (const [i, account] of DEMO_ACCOUNTS.entries()) {
      const [existing] = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${account.email}`)
        .limit(1);
      if (existing) {
        accounts.push({ ...account, id: existing.id, created: false });
        continue;
      }
      const [row] = await tx
        .insert(users)
        .values({
          email: account.email,
          passwordHash: hashes[i],
          firstName: account.firstName,
          lastName: account.lastName,
          slug: account.slug,
          role: account.role,
          emailStatus: "verified",
          termsAcceptedAt: options.now,
          createdAt: options.now,
          updatedAt: options.now,
        })
        .returning({ id: users.id });
      accounts.push({ ...account, id: row?.id ?? 0, created: true });
    }
    const organiser = accounts.find((a) => a.role === "organiser");
    if (!organiser) return { accounts, events: [] };
    let mine = await tx
      .select({ id: events.id, name: events.name, slug: events.slug })
      .from(events)
      .innerJoin(eventOrganizers, eq(eventOrganizers.eventId, events.id))
      .where(eq(eventOrganizers.userId, organiser.id))
      .orderBy(asc(events.startDate), asc(events.id));
    if (mine.length === 0) {
      const today = options.now.toISOString().slice(0, 10);
      mine = await tx
        .select({ id: events.id, name: events.name, slug: events.slug })
        .from(events)
        .where(and(eq(events.status, "active"), gte(events.startDate, today)))
        .orderBy(asc(events.startDate), asc(events.id))
        .limit(DEMO_ORGANISER_EVENTS);
      if (mine.length) {
        await tx
          .insert(eventOrganizers)
          .values(mine.map((e) => ({ eventId: e.id, userId: organiser.id, email: organiser.email })))
          .onConflictDoNothing();
        await tx
          .update(events)
          .set({ ownerId: organiser.id, isOwner: true })
          .where(
            and(
              inArray(
                events.id,
                mine.map((e) => e.id),
              ),
              sql`${events.ownerId} IS NULL`,
            ),
          );
      }
    }
    return { accounts, events: mine };
  });
}

/** The block printed at start: who to sign in as, and with what. */
export function demoAccountsBanner(report: DemoAccountsReport, publicUrl: string): string {
  const width = Math.max(...report.accounts.map((a) => a.email.length));
  const label = { member: "member   ", organiser: "organiser", admin: "admin    " } as const;
  const lines = [
    "Demo accounts (public passwords; DEMO_ACCOUNTS=0 turns them off):",
    ...report.accounts.map((a) => `  ${label[a.role]}  ${a.email.padEnd(width)}  ${a.password}`),
    `  Sign in at ${publicUrl}${pagePath("login", "fr")}`,
  ];
  if (report.events.length) {
    lines.push(
      "  The organiser runs:",
      ...report.events.map((e) => `    ${e.name} — ${publicUrl}${pagePath("event", "fr", { slug: e.slug })}`),
    );
  }
  return lines.join("\n");
}
