import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerBodySchema } from "../../../features/accounts/accounts.contract.ts";
import { Dialog } from "../Dialog.tsx";
import { CheckboxField, FormError, SubmitButton, TextField } from "../fields.tsx";
import { parseForm, reply } from "./submission.ts";
import { type ApiFormOptions, useApiForm } from "./use-api-form.ts";

type RegisterInput = Parameters<typeof registerBodySchema.parse>[0] & Record<string, unknown>;

/** A registration form as the pages write it. */
function RegisterForm(props: Partial<ApiFormOptions<RegisterInput, unknown, unknown>>) {
  const { fields, ...form } = useApiForm({ schema: registerBodySchema, url: "/api/register", ...props });
  return (
    <form {...form.props}>
      <FormError message={form.formError} />
      <TextField field={fields.firstName} label="Prénom" />
      <TextField field={fields.lastName} label="Nom" />
      <TextField field={fields.email} type="email" label="Adresse e-mail" hint="Jamais affichée" />
      <TextField field={fields.password} type="password" label="Mot de passe" />
      <TextField field={fields.passwordConfirmation} type="password" label="Confirmation" />
      <CheckboxField field={fields.terms} label="J'accepte" />
      <SubmitButton pending={form.pending} pendingLabel="Envoi…">
        Créer
      </SubmitButton>
    </form>
  );
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText("Prénom"), "Léa");
  await user.type(screen.getByLabelText("Nom"), "Dubois");
  await user.type(screen.getByLabelText("Adresse e-mail"), "lea@example.fr");
  await user.type(screen.getByLabelText("Mot de passe"), "montagne 2026");
  await user.type(screen.getByLabelText("Confirmation"), "montagne 2026");
  await user.click(screen.getByLabelText("J'accepte"));
}

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

afterEach(() => vi.restoreAllMocks());

describe("useApiForm", () => {
  it("checks the contract in the browser: messages beside their fields, tied to them, focus on the first", async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, "fetch");
    render(<RegisterForm />);
    await user.type(screen.getByLabelText("Adresse e-mail"), "lea@");
    await user.click(screen.getByRole("button", { name: "Créer" }));

    const email = screen.getByLabelText("Adresse e-mail");
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("Jamais affichée Adresse e-mail invalide.");
    expect(screen.getByLabelText("Prénom")).toHaveAccessibleDescription("Indiquez votre prénom.");
    expect(screen.getByLabelText("J'accepte")).toHaveAccessibleDescription(
      "Vous devez accepter les conditions d'utilisation.",
    );
    expect(screen.getByLabelText("Prénom")).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("gives each input the contract's limits, so nobody types more than the API accepts", async () => {
    const user = userEvent.setup();
    render(<RegisterForm />);
    const firstName = screen.getByLabelText("Prénom");
    const lastName = screen.getByLabelText("Nom");
    expect(firstName).toHaveAttribute("maxlength", "80");
    expect(firstName).toBeRequired();
    // Either a last name or a nickname: neither is required alone.
    expect(lastName).toHaveAttribute("maxlength", "80");
    expect(lastName).not.toBeRequired();
    expect(screen.getByLabelText("Adresse e-mail")).toHaveAttribute("maxlength", "254");
    expect(screen.getByLabelText("Mot de passe")).toHaveAttribute("minlength", "8");
    expect(screen.getByLabelText("J'accepte")).toBeRequired();
    await user.type(lastName, "x".repeat(90));
    expect(lastName).toHaveValue("x".repeat(80));
    // The form checks in its own words once hydrated: the browser's bubbles stay off.
    expect(screen.getByRole("button", { name: "Créer" }).closest("form")).toHaveAttribute("novalidate");
  });

  it("posts the typed values to the API as JSON, with the access header, and reports success", async () => {
    const user = userEvent.setup();
    const onSuccess = vi.fn();
    const fetchMock = vi.spyOn(globalThis, "fetch").mockResolvedValue(jsonResponse(201, { user: { id: 7 } }));
    render(<RegisterForm onSuccess={onSuccess} />);
    await fillValid(user);
    await user.click(screen.getByRole("button", { name: "Créer" }));

    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe("/api/register");
    expect(new Headers(init.headers).get("x-dossard-access")).toBeTruthy();
    expect(JSON.parse(String(init.body))).toMatchObject({
      firstName: "Léa",
      email: "lea@example.fr",
      terms: true,
      newsletter: false,
    });
    expect(onSuccess.mock.calls[0]?.[0]).toEqual({ user: { id: 7 } });
  });

  it("shows the server's field errors beside the fields they name, and a form error above", async () => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      jsonResponse(400, {
        error: {
          code: "PASSWORD_TOO_SHORT",
          message: "Le mot de passe doit contenir au moins 8 caractères.",
          field: "password",
          fields: [
            {
              field: "password",
              code: "PASSWORD_TOO_SHORT",
              message: "Le mot de passe doit contenir au moins 8 caractères.",
            },
            { field: "email", code: "EMAIL_ALREADY_USED", message: "Cette adresse est déjà utilisée." },
          ],
        },
      }),
    );
    render(<RegisterForm />);
    await fillValid(user);
    await user.click(screen.getByRole("button", { name: "Créer" }));

    const email = screen.getByLabelText("Adresse e-mail");
    await waitFor(() => expect(email).toHaveAttribute("aria-invalid", "true"));
    expect(email).toHaveAccessibleDescription("Jamais affichée Cette adresse est déjà utilisée.");
    expect(screen.getByLabelText("Mot de passe")).toHaveAccessibleDescription(
      "Le mot de passe doit contenir au moins 8 caractères.",
    );
    expect(email).toHaveFocus();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("puts an error about no field above the form, and lets the page handle the ones it knows", async () => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      jsonResponse(429, { error: { code: "TOO_MANY_ATTEMPTS", message: "Trop de tentatives." } }),
    );
    const { unmount } = render(<RegisterForm />);
    await fillValid(user);
    await user.click(screen.getByRole("button", { name: "Créer" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Trop de tentatives.");
    unmount();

    const onError = vi.fn(() => true);
    render(<RegisterForm onError={onError} />);
    await fillValid(user);
    await user.click(screen.getByRole("button", { name: "Créer" }));
    await waitFor(() => expect(onError).toHaveBeenCalledWith("TOO_MANY_ATTEMPTS"));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("disables the submit button while the request runs", async () => {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => {};
    vi.spyOn(globalThis, "fetch").mockReturnValue(new Promise((resolve) => (answer = resolve)));
    render(<RegisterForm />);
    await fillValid(user);
    await user.click(screen.getByRole("button", { name: "Créer" }));
    expect(screen.getByRole("button", { name: "Envoi…" })).toBeDisabled();
    await act(async () => answer(jsonResponse(201, {})));
    expect(screen.getByRole("button", { name: "Créer" })).toBeEnabled();
  });

  it("shows a route action's answer (the form posted without JavaScript) beside the fields, without the passwords", () => {
    const posted = new FormData();
    for (const [name, value] of Object.entries({
      firstName: "Léa",
      lastName: "Dubois",
      email: "lea@example.fr",
      password: "montagne 2026",
      passwordConfirmation: "montagne 2026",
      terms: "on",
    }))
      posted.append(name, value);
    const submission = parseForm(posted, registerBodySchema, "fr");
    const lastResult = reply(submission, {
      fieldErrors: { email: ["Cette adresse est déjà utilisée."] },
    });
    expect(JSON.stringify(lastResult)).not.toContain("montagne");

    render(<RegisterForm lastResult={lastResult} />);
    const email = screen.getByLabelText("Adresse e-mail");
    expect(email).toHaveValue("lea@example.fr");
    expect(email).toHaveAccessibleDescription("Jamais affichée Cette adresse est déjà utilisée.");
    expect(screen.getByLabelText("Prénom")).toHaveValue("Léa");
    expect(screen.getByLabelText("Mot de passe")).toHaveValue("");
    expect(screen.getByLabelText("J'accepte")).toBeChecked();
  });
});

describe("Dialog", () => {
  it("is a labelled modal dialog; Escape and the close button both ask the page to close it", async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(
      <Dialog title="Reporter" onClose={onClose} closeLabel="Fermer" testId="d">
        <button type="button" data-autofocus>
          Rester
        </button>
      </Dialog>,
    );
    const dialog = screen.getByRole("dialog", { name: "Reporter" });
    expect(dialog).toHaveAttribute("open");
    expect(screen.getByRole("button", { name: "Rester" })).toHaveFocus();
    await user.click(screen.getByRole("button", { name: "Fermer" }));
    expect(onClose).toHaveBeenCalledTimes(1);
    dialog.dispatchEvent(new Event("cancel", { cancelable: true }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it("shows nothing while closed and takes role alertdialog when asked", () => {
    const { rerender } = render(
      <Dialog title="Quitter ?" onClose={() => {}} open={false} role="alertdialog">
        <p>Texte</p>
      </Dialog>,
    );
    expect(screen.queryByText("Texte")).not.toBeInTheDocument();
    rerender(
      <Dialog title="Quitter ?" onClose={() => {}} role="alertdialog">
        <p>Texte</p>
      </Dialog>,
    );
    expect(screen.getByRole("alertdialog", { name: "Quitter ?" })).toBeInTheDocument();
  });
});
