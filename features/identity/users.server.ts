/**
 * The member as the rest of the site shows them (name, photo, the session's summary) and the one
 * change of role a feature makes on its own (a proved organiser). Reads only the users table.
 */
import { and, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { imageUrl } from "../../shared/image-url.ts";
import type { SessionUser } from "./identity.contract.ts";
import { users } from "./identity.tables.ts";
import type { UserRow } from "./sessions.server.ts";

export function displayName(user: Pick<UserRow, "pseudo" | "firstName" | "lastName">): string {
  return user.pseudo || [user.firstName, user.lastName].filter(Boolean).join(" ");
}

export function photoUrl(user: Pick<UserRow, "photo" | "updatedAt">): string | null {
  return user.photo ? imageUrl({ kind: "user", file: user.photo, timestamp: user.updatedAt }) : null;
}

export function sessionUser(user: UserRow): SessionUser {
  return {
    id: user.id,
    displayName: displayName(user),
    firstName: user.firstName,
    slug: user.slug,
    role: user.role,
    emailStatus: user.emailStatus,
    photoUrl: photoUrl(user),
    locale: user.locale === "en" ? "en" : "fr",
  };
}

/**
 * A member who proved they organise an event becomes an organiser; organisers and admins keep
 * their role. Takes the caller's transaction so the role changes with the rights granted.
 */
export async function promoteToOrganiser(tx: Executor, userId: number): Promise<void> {
  await tx
    .update(users)
    .set({ role: "organiser" })
    .where(and(eq(users.id, userId), eq(users.role, "member")));
}
