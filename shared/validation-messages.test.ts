import { describe, expect, it } from "vitest";
import { z } from "zod";
import { registerBodySchema } from "../features/accounts/accounts.contract.ts";
import { contactOrganizerBodySchema } from "../features/organizers/organizer.contract.ts";
import { text } from "./input.ts";
import { issueText } from "./validation-messages.ts";

/** The words of the first failure of `field` when `value` is checked with `schema`. */
function words(schema: z.ZodType, value: unknown, locale: "fr" | "en" = "fr", field?: string) {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a failure");
  const issue = field ? result.error.issues.find((i) => i.path.join(".") === field) : result.error.issues[0];
  if (!issue) throw new Error(`no issue on ${field}: ${JSON.stringify(result.error.issues)}`);
  return issueText(issue, locale);
}

const register = {
  email: "lea@example.fr",
  password: "long enough 1",
  passwordConfirmation: "long enough 1",
  firstName: "Léa",
  lastName: "Martin",
  terms: true,
};

describe("the words of a failed check", () => {
  it("say what each rule wants, in French and English, never the field's name", () => {
    const long = { ...register, lastName: "x".repeat(81) };
    expect(words(registerBodySchema, long, "fr", "lastName")).toEqual({
      code: "BAD_REQUEST",
      message: "80 caractères au plus.",
    });
    expect(words(registerBodySchema, long, "en", "lastName").message).toBe("80 characters at most.");
    expect(words(registerBodySchema, { ...register, firstName: "  " }, "fr", "firstName")).toEqual({
      code: "FIELD_REQUIRED",
      message: "Indiquez votre prénom.",
    });
    expect(words(registerBodySchema, { ...register, firstName: "" }, "en", "firstName").message).toBe(
      "Enter your first name.",
    );
    // A rule written as a catalogue code keeps its message.
    expect(words(registerBodySchema, { ...register, email: "lea@" }, "fr", "email")).toEqual({
      code: "EMAIL_INVALID",
      message: "Adresse e-mail invalide.",
    });
    const message = words(contactOrganizerBodySchema, { eventId: 1, name: "Léa", email: "a@b.fr", message: "" });
    expect(message.message).toBe("Écrivez votre message.");
  });

  it("formats limits the way each language writes numbers", () => {
    const schema = z.object({ bibQuota: z.number().int().min(1).max(20_000), notes: text().max(2000) });
    expect(words(schema, { bibQuota: 25_000, notes: "" }, "fr").message).toBe("20\u202f000 au plus.");
    expect(words(schema, { bibQuota: 25_000, notes: "" }, "en").message).toBe("20,000 at most.");
    expect(words(schema, { bibQuota: 0, notes: "" }, "fr").message).toBe("1 au moins.");
    expect(words(schema, { bibQuota: 1.5, notes: "" }, "fr").message).toBe("Indiquez un nombre entier.");
    expect(words(schema, { bibQuota: "12", notes: "" }, "en").message).toBe("Enter a number.");
    expect(words(schema, { bibQuota: 1, notes: "x".repeat(2001) }, "fr").message).toBe(
      "2\u202f000 caractères au plus.",
    );
  });

  it("has words for choices, formats, missing values and refused characters", () => {
    expect(words(z.object({ sport: z.enum(["trail", "running"]) }), { sport: "ski" }, "fr").message).toBe(
      "Choisissez un sport de la liste.",
    );
    expect(words(z.object({ scope: z.enum(["local", "national"]) }), { scope: "x" }, "en").message).toBe(
      "Choose one of the values offered.",
    );
    expect(words(z.object({ zipcode: z.string().regex(/^\d{5}$/) }), { zipcode: "7500" }, "fr").message).toBe(
      "Un code postal s'écrit avec 5 chiffres.",
    );
    expect(words(z.object({ website: z.url() }), { website: "nope" }, "en").message).toBe(
      "Invalid web address (https://…).",
    );
    expect(words(z.object({ city: z.string() }), {}, "fr").message).toBe("Indiquez la ville.");
    expect(words(z.object({ city: text() }), { city: "a\u0000b" }, "en")).toEqual({
      code: "BAD_REQUEST",
      message: "This text contains a character that is not accepted.",
    });
  });
});
