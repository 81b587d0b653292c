/**
 * The members' side of an import: after a re-import re-attached (or dropped) the lines members
 * had claimed, their badges, best times and stats are recomputed. That work belongs to
 * features/badges (`refreshMemberAchievements(db, userIds)` in badges.service.server.ts, written in
 * parallel); until it is merged, this stand-in does nothing and the import calls it all the same.
 */
import type { RefreshAchievements } from "./results-import.service.server.ts";

export const refreshMemberAchievements: RefreshAchievements = async () => {};
