/**
 * The member is deleted (accounts' member data port, decision 048): their "I am the organiser"
 * codes go, with the addresses they were sent to.
 */
import { eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { organizerClaims } from "./organizers.tables.ts";

export async function removeMemberOrganizerClaims(tx: Executor, userId: number): Promise<void> {
  await tx.delete(organizerClaims).where(eq(organizerClaims.userId, userId));
}
