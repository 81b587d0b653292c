/**
 * Request and response shapes of the account API (register, login, codes, recovery, profile).
 * Field rules carry the error catalogue's codes as their messages, so a failed check answers with
 * the spec's own message beside the right field (see accountIssue below).
 */
import { z } from "zod";
import type { ErrorCode } from "../../shared/api-error.ts";
import { LOCALES, MIN_PASSWORD_LENGTH, SPORTS, VERIFICATION_CODE_LENGTH } from "../../shared/constants.ts";
import { secretText, text } from "../../shared/input.ts";
import { EMAIL_STATUSES, USER_ROLES } from "../identity/identity.contract.ts";

export const GENDERS = ["female", "male", "other"] as const;
export const SPORT_KEYS = SPORTS.map((s) => s.key) as [string, ...string[]];
/** Best times are at most 99 hours (DurationInput allows 999 h; nobody runs a marathon that long). */
export const MAX_BEST_TIME = 99 * 3600;
/** Profile photos: accepted types (checked by content) and size. */
export const USER_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const USER_PHOTO_TYPES = ["jpeg", "png", "webp"] as const;

/** A zod issue whose message is one of these codes is answered with that code's message. */
const code = (c: ErrorCode) => ({ message: c });

export const emailSchema = text(code("EMAIL_EMPTY"))
  .trim()
  .min(1, code("EMAIL_EMPTY"))
  .max(254, code("EMAIL_INVALID"))
  .pipe(z.email(code("EMAIL_INVALID")));

export const newPasswordSchema = secretText(code("PASSWORD_TOO_SHORT"))
  .min(MIN_PASSWORD_LENGTH, code("PASSWORD_TOO_SHORT"))
  .max(256, { message: "BAD_REQUEST" });

const name = text().trim().max(80).default("");

function passwordsMatch<T extends { password: string; passwordConfirmation: string }>(value: T, ctx: z.RefinementCtx) {
  if (value.password !== value.passwordConfirmation) {
    ctx.addIssue({ code: "custom", path: ["passwordConfirmation"], message: "PASSWORDS_NOT_IDENTICAL" });
  }
}

export const registerBodySchema = z
  .object({
    email: emailSchema,
    password: newPasswordSchema,
    passwordConfirmation: secretText(code("PASSWORDS_NOT_IDENTICAL")),
    firstName: text(code("FIELD_REQUIRED")).trim().min(1, code("FIELD_REQUIRED")).max(80),
    lastName: name,
    pseudo: name,
    terms: z.literal(true, code("TERMS_REQUIRED")),
    newsletter: z.boolean().default(false),
    locale: z.enum(LOCALES).default("fr"),
  })
  .superRefine((value, ctx) => {
    passwordsMatch(value, ctx);
    if (!value.lastName && !value.pseudo) {
      ctx.addIssue({ code: "custom", path: ["lastName"], message: "FIELD_REQUIRED" });
    }
  });
export type RegisterBody = z.infer<typeof registerBodySchema>;

/** The first admin of a fresh install, through the one-time link the server prints (`/api/setup`). */
export const firstAdminBodySchema = z
  .object({
    token: z.string(code("SETUP_LINK_INVALID")).min(1, code("SETUP_LINK_INVALID")).max(200),
    email: emailSchema,
    password: newPasswordSchema,
    passwordConfirmation: z.string(code("PASSWORDS_NOT_IDENTICAL")),
    firstName: z.string(code("FIELD_REQUIRED")).trim().min(1, code("FIELD_REQUIRED")).max(80),
    lastName: z.string(code("FIELD_REQUIRED")).trim().min(1, code("FIELD_REQUIRED")).max(80),
    locale: z.enum(LOCALES).default("fr"),
  })
  .superRefine(passwordsMatch);
export type FirstAdminBody = z.infer<typeof firstAdminBodySchema>;

export const loginBodySchema = z.object({
  email: emailSchema,
  password: secretText(code("BAD_LOGIN")).min(1, code("BAD_LOGIN")).max(256),
  remember: z.boolean().default(false),
});

export const verifyCodeBodySchema = z.object({
  code: text(code("INVALID_CODE"))
    .trim()
    .regex(new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`), code("INVALID_CODE")),
});

export const recoverBodySchema = z.object({ email: emailSchema, locale: z.enum(LOCALES).optional() });

export const resetBodySchema = z
  .object({
    token: text(code("INVALID_TOKEN")).min(10, code("INVALID_TOKEN")).max(200, code("INVALID_TOKEN")),
    password: newPasswordSchema,
    passwordConfirmation: secretText(code("PASSWORDS_NOT_IDENTICAL")),
  })
  .superRefine(passwordsMatch);

const optionalText = (max: number) =>
  text()
    .trim()
    .max(max)
    .transform((v) => v || null)
    .nullable()
    .optional();
const bestTime = z.number().int().min(1).max(MAX_BEST_TIME).nullable().optional();

export const profileBodySchema = z
  .object({
    firstName: text(code("FIELD_REQUIRED")).trim().min(1, code("FIELD_REQUIRED")).max(80),
    lastName: name,
    pseudo: name,
    gender: z.enum(GENDERS).nullable().optional(),
    city: optionalText(120),
    country: text()
      .regex(/^[A-Z]{2}$/)
      .nullable()
      .optional(),
    presentation: optionalText(2000),
    objectives: optionalText(2000),
    sports: z.array(z.enum(SPORT_KEYS)).max(SPORT_KEYS.length).default([]),
    best10k: bestTime,
    bestHalf: bestTime,
    bestMarathon: bestTime,
    publicProfile: z.boolean().default(false),
  })
  .superRefine((value, ctx) => {
    if (!value.lastName && !value.pseudo) {
      ctx.addIssue({ code: "custom", path: ["lastName"], message: "FIELD_REQUIRED" });
    }
  });
export type ProfileBody = z.infer<typeof profileBodySchema>;

export const changeEmailBodySchema = z.object({
  email: emailSchema,
  currentPassword: secretText().max(256).optional(),
});
export const changePasswordBodySchema = z
  .object({
    currentPassword: secretText().max(256).optional(),
    password: newPasswordSchema,
    passwordConfirmation: secretText(code("PASSWORDS_NOT_IDENTICAL")),
  })
  .superRefine(passwordsMatch);
export const preferencesBodySchema = z.object({
  newsletter: z.boolean(),
  locale: z.enum(LOCALES),
});
export const disableBodySchema = z.object({
  confirm: z.literal(true, { message: "FIELD_REQUIRED" }),
  currentPassword: secretText().max(256).optional(),
});

/** POST /api/user/{type}/{id}: what each type edits. */
export const USER_EDIT_TYPES = ["profile", "email", "password", "preferences"] as const;
export type UserEditType = (typeof USER_EDIT_TYPES)[number];

/** The signed-in member as the client sees them. */
export const meSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  emailStatus: z.enum(EMAIL_STATUSES),
  pendingEmail: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  pseudo: z.string(),
  displayName: z.string(),
  slug: z.string(),
  gender: z.enum(GENDERS).nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  presentation: z.string().nullable(),
  objectives: z.string().nullable(),
  sports: z.array(z.string()),
  best10k: z.number().int().nullable(),
  bestHalf: z.number().int().nullable(),
  bestMarathon: z.number().int().nullable(),
  publicProfile: z.boolean(),
  photoUrl: z.string().nullable(),
  role: z.enum(USER_ROLES),
  locale: z.enum(LOCALES),
  newsletter: z.boolean(),
  hasPassword: z.boolean(),
  identities: z.array(z.string()),
  lastLoginAt: z.string().nullable(),
  loginCount: z.number().int(),
  createdAt: z.string(),
});
export type Me = z.infer<typeof meSchema>;

export const userStatsSchema = z.object({
  badges: z.number().int(),
  totalDistance: z.number(),
  races: z.number().int(),
  maxDistance: z.number(),
  totalElevation: z.number(),
  results: z.number().int(),
  upcomingRaces: z.number().int(),
});
export type UserStats = z.infer<typeof userStatsSchema>;

export const publicProfileSchema = z.object({
  slug: z.string(),
  displayName: z.string(),
  firstName: z.string(),
  gender: z.enum(GENDERS).nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  presentation: z.string().nullable(),
  objectives: z.string().nullable(),
  sports: z.array(z.string()),
  best10k: z.number().int().nullable(),
  bestHalf: z.number().int().nullable(),
  bestMarathon: z.number().int().nullable(),
  photoUrl: z.string().nullable(),
  memberSince: z.string(),
  stats: userStatsSchema,
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

export const okSchema = z.object({ ok: z.literal(true) });
export const meResponseSchema = z.object({ user: meSchema });
