import { act, render, renderHook, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Slide, toast } from "react-toastify";
import { afterEach, describe, expect, it } from "vitest";
import { TOAST_TYPES } from "../constants.ts";
import { notify, TOAST_DEFAULTS, ToastHost, toastIdFor, useToast } from "./Toasts.tsx";

const show = async (fn: () => unknown) => {
  await act(async () => {
    fn();
  });
};

afterEach(async () => {
  await act(async () => {
    toast.dismiss();
  });
});

describe("toast defaults", () => {
  it("match the product defaults", () => {
    expect(TOAST_DEFAULTS).toEqual({
      position: "top-center",
      autoClose: 4000,
      hideProgressBar: false,
      newestOnTop: true,
      draggable: false,
      theme: "colored",
      transition: Slide,
    });
  });

  it("are applied by the host: top-center, coloured, slide, a 4 s progress bar", async () => {
    render(<ToastHost />);
    await show(() => notify("info", "Bienvenue"));
    const region = screen.getByRole("region", { name: "Notifications" });
    expect(region.querySelector(".Toastify__toast-container--top-center")).not.toBeNull();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveClass(
      "Toastify__toast-theme--colored",
      "Toastify__toast--info",
      "Toastify__slide-enter--top-center",
    );
    const bar = within(alert).getByRole("progressbar");
    expect(bar.getAttribute("style")).toContain("animation-duration: 4000ms");
    await waitFor(() => expect(bar).toHaveAttribute("aria-label", "Minuteur de la notification"));
  });
});

describe("notify", () => {
  it("shows the message with its type in words for screen readers", async () => {
    render(<ToastHost />);
    await show(() => notify("success", "Course enregistrée"));
    expect(await screen.findByRole("alert")).toHaveTextContent("Succès : Course enregistrée");
  });

  it("gives each type its own icon", async () => {
    render(<ToastHost />);
    const icons: string[] = [];
    for (const type of TOAST_TYPES) {
      await show(() => notify(type, `Message ${type}`));
      const alert = await screen.findByRole("alert");
      const icon = alert.querySelector(`svg[data-toast-icon="${type}"]`);
      expect(icon).not.toBeNull();
      expect(icon).toHaveAttribute("aria-hidden", "true");
      icons.push(icon?.getAttribute("class") ?? "");
    }
    expect(new Set(icons).size).toBe(4);
  });

  it("uses one toast id per type and message, so duplicates do not stack", async () => {
    render(<ToastHost />);
    expect(toastIdFor("error", "Oups")).toBe("error:Oups");
    let first: unknown;
    let second: unknown;
    await show(() => {
      first = notify("error", "Oups");
    });
    await show(() => {
      second = notify("error", "Oups");
    });
    expect(first).toBe("error:Oups");
    expect(second).toBe("error:Oups");
    expect(screen.getAllByRole("alert")).toHaveLength(1);
    expect(document.getElementById("error:Oups")).not.toBeNull();
  });

  it("dismisses the current toast before showing a new one", async () => {
    render(<ToastHost />);
    await show(() => notify("warning", "Première"));
    expect(toast.isActive("warning:Première")).toBe(true);
    await show(() => notify("info", "Seconde"));
    expect(toast.isActive("warning:Première")).toBe(false);
    expect(toast.isActive("info:Seconde")).toBe(true);
    await waitFor(() =>
      expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toEqual(["Information : Seconde"]),
    );
  });

  it("can be closed with a translated close button", async () => {
    const user = userEvent.setup();
    render(<ToastHost />);
    await show(() => notify("error", "Échec"));
    await user.click(await screen.findByRole("button", { name: "Fermer la notification" }));
    await waitFor(() => expect(toast.isActive("error:Échec")).toBe(false));
  });
});

describe("ToastHost", () => {
  it("stacks the newest toast on top", async () => {
    render(<ToastHost />);
    await show(() => {
      toast("Ancien", { toastId: "old" });
      toast("Récent", { toastId: "new" });
    });
    expect(screen.getAllByRole("alert").map((alert) => alert.id)).toEqual(["new", "old"]);
  });
});

describe("useToast", () => {
  it("offers notify and one shortcut per type", async () => {
    render(<ToastHost />);
    const { result } = renderHook(() => useToast());
    await show(() => result.current.success("Sauvé"));
    expect(toast.isActive("success:Sauvé")).toBe(true);
    await show(() => result.current.error("Raté"));
    expect(toast.isActive("error:Raté")).toBe(true);
    expect(toast.isActive("success:Sauvé")).toBe(false);
    await show(() => result.current.dismiss());
    expect(toast.isActive("error:Raté")).toBe(false);
  });
});
