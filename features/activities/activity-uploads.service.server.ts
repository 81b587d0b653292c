/** Activity files a member uploads (GPX, TCX, FIT), read by the workers and stored here. */
import type { Db } from "../../platform/db/client.server.ts";
import { ApiError, apiErrorMessage, isErrorCode } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { parisToday, zonedTime } from "../../shared/zoned-time.ts";
import { type Limit, rateLimiter } from "../identity/rate-limit.server.ts";
import { ACTIVITY_FILES_PER_UPLOAD, type UploadResponse } from "./activities.contract.ts";
import { activities, activityStreams } from "./activities.tables.ts";
import type { ReadActivityFile } from "./activity-files.ts";
import { type ActivityRow, streamRow, summary, trackColumns } from "./activity-rows.ts";

/** Upload requests a member may make in an hour (each up to ACTIVITY_FILES_PER_UPLOAD files). */
export const ACTIVITY_UPLOAD_LIMIT: Limit = { max: 30, windowSeconds: 60 * 60 };

export function activityUploadsService(db: Db, clock: () => Date) {
  const limiter = rateLimiter(db, clock);

  return {
    /** Counts an upload request before its files are read (TOO_MANY_UPLOADS beyond the hour's). */
    async admitUpload(user: { id: number }): Promise<void> {
      await limiter.hit(`upload:activity:${user.id}`, ACTIVITY_UPLOAD_LIMIT, "TOO_MANY_UPLOADS");
    },

    /**
     * Stores the files read by the workers; each outcome (activity or translated error) in order.
     * When no file is readable the whole upload is refused with the first file's error. A file
     * without any time is on the day the member gives (`date`, "YYYY-MM-DD"): without it the whole
     * upload is refused (ACTIVITY_DATE_REQUIRED), nothing stored, and the form asks for it.
     */
    async storeFiles(
      user: { id: number },
      files: { fileName: string; read: ReadActivityFile | null; error: unknown }[],
      locale: Locale,
      date: string | null = null,
    ): Promise<UploadResponse> {
      if (files.length > ACTIVITY_FILES_PER_UPLOAD) throw new ApiError("TOO_MANY_FILES");
      // Nothing readable: the upload is refused as a whole, with the (first) file's own error.
      if (files.every((f) => !f.read)) {
        const first = files[0]?.error;
        throw first instanceof ApiError ? first : new ApiError("ACTIVITY_FILE_INVALID");
      }
      if (date !== null && date > parisToday(clock())) throw new ApiError("ACTIVITY_DATE_INVALID");
      const untimed = files.some((f) => f.read && f.read.startedAt === null);
      if (untimed && date === null) throw new ApiError("ACTIVITY_DATE_REQUIRED");
      const out: UploadResponse["files"] = [];
      for (const file of files) {
        if (!file.read) {
          const code =
            file.error instanceof ApiError && isErrorCode(file.error.code) ? file.error.code : "ACTIVITY_FILE_INVALID";
          out.push({ fileName: file.fileName, error: { code, message: apiErrorMessage(code, locale) } });
          continue;
        }
        const read = file.read;
        const stem = file.fileName.replace(/\.[^.]{1,5}$/, "").trim();
        const now = clock();
        const row = await db.transaction(async (tx) => {
          const [inserted] = await tx
            .insert(activities)
            .values({
              userId: user.id,
              provider: "file",
              fileKind: read.kind,
              name: (read.name ?? stem ?? "").slice(0, 200) || read.kind.toUpperCase(),
              sport: read.sport ?? "run",
              // Never the upload's instant: the recorded start, else noon (Paris) of the member's day.
              startedAt: read.startedAt !== null ? new Date(read.startedAt) : zonedTime(date!, 12, 0, "Europe/Paris"),
              startPrecision: read.startedAt !== null ? "time" : "day",
              distance: read.track.distance,
              movingTime: read.movingTime,
              elapsedTime: read.elapsedTime,
              ...trackColumns(read),
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          await tx.insert(activityStreams).values(streamRow((inserted as ActivityRow).id, read));
          return inserted as ActivityRow;
        });
        out.push({ fileName: file.fileName, activity: summary(row) });
      }
      return { files: out };
    },
  };
}
