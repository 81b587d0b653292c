import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkOrganizerBodySchema } from "../../../features/editor/editor.contract.ts";
import { invitationBodySchema } from "../../../features/organizers/organizer.contract.ts";
import { apiErrorsOf, formFieldName, parseForm, reply } from "./submission.ts";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe("form submissions", () => {
  it("reads a form with its contract: checkboxes, numbers and lists typed, messages from the catalogue", () => {
    const ok = parseForm(
      form([
        ["eventId", "12"],
        ["emails[0]", "ami@example.fr"],
        ["emails[1]", " amie@example.fr "],
        ["message", ""],
      ]),
      invitationBodySchema,
      "fr",
    );
    expect(ok.status).toBe("success");
    expect(ok.status === "success" && ok.value).toEqual({
      eventId: 12,
      emails: ["ami@example.fr", "amie@example.fr"],
    });

    const bad = parseForm(
      form([
        ["eventId", "12"],
        ["emails[0]", "ami@"],
      ]),
      invitationBodySchema,
      "en",
    );
    expect(bad.status === "error" && bad.error).toEqual({ "emails[0]": ["Invalid email address."] });
  });

  it("keeps a required text empty rather than missing, so its own rule answers", () => {
    const empty = parseForm(
      form([
        ["eventId", "3"],
        ["email", ""],
      ]),
      checkOrganizerBodySchema,
      "fr",
    );
    expect(empty.status === "error" && empty.error).toEqual({
      email: ["Adresse e-mail invalide."],
      belongs: ["Cochez cette case si vous faites partie de l'organisation."],
    });
  });

  it("gives the form's own texts to checks only the browser makes", () => {
    const schema = z.object({ startDate: z.string("required").min(1, "required") });
    const result = parseForm(form([["startDate", ""]]), schema, "fr", { required: "Indiquez la date." });
    expect(result.status === "error" && result.error).toEqual({ startDate: ["Indiquez la date."] });
  });

  it("never sends a password back into the page", () => {
    const schema = z.object({ email: z.string(), password: z.string(), currentPassword: z.string() });
    const submission = parseForm(
      form([
        ["email", "a@b.fr"],
        ["password", "secret 1"],
        ["currentPassword", "secret 2"],
      ]),
      schema,
      "fr",
    );
    const result = reply(submission, { formErrors: ["Non."] });
    expect(result.initialValue).toEqual({ email: "a@b.fr" });
    expect(result.error).toEqual({ "": ["Non."] });
  });

  it("lays an API error onto the fields it names, or above the form", () => {
    expect(formFieldName("emails.1")).toBe("emails[1]");
    expect(formFieldName("courses.0.name")).toBe("courses[0].name");
    expect(
      apiErrorsOf(
        {
          error: {
            code: "EMAIL_INVALID",
            message: "Adresse e-mail invalide.",
            field: "emails.1",
            fields: [
              { field: "emails.1", code: "EMAIL_INVALID", message: "Adresse e-mail invalide." },
              { field: "message", code: "INVALID_FIELD", message: "2 000 caractères au plus." },
            ],
          },
        },
        "fr",
      ),
    ).toEqual({
      code: "EMAIL_INVALID",
      fieldErrors: { "emails[1]": ["Adresse e-mail invalide."], message: ["2 000 caractères au plus."] },
    });
    expect(apiErrorsOf({ error: { code: "TOO_MANY_ATTEMPTS", message: "Trop." } }, "fr")).toEqual({
      code: "TOO_MANY_ATTEMPTS",
      fieldErrors: {},
      formErrors: ["Trop."],
    });
    expect(apiErrorsOf("<html>", "en")).toEqual({
      code: "GENERIC",
      formErrors: ["Something went wrong, please try again."],
    });
  });
});
