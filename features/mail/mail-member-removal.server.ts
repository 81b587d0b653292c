/**
 * The member is deleted (accounts' member data port, decision 048): the messages sent to them
 * leave the sent-mail log — by account or by address — and the ones still queued are never sent
 * (their job finds no message and stops).
 */
import { eq, or, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { mailMessages } from "./mail.tables.ts";

export async function removeMemberMail(tx: Executor, userId: number, email: string): Promise<void> {
  await tx
    .delete(mailMessages)
    .where(or(eq(mailMessages.userId, userId), sql`lower(${mailMessages.recipient}) = ${email.trim().toLowerCase()}`));
}
