import { act, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { hydrateRoot } from "react-dom/client";
import { prerender } from "react-dom/static";
import { afterEach, describe, expect, it, vi } from "vitest";
import { island } from "./island.tsx";

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <section>
      <h2>{label}</h2>
      <button type="button" onClick={() => setCount((c) => c + 1)}>
        clicked {count} times
      </button>
    </section>
  );
}

/** The page as the server sends it: the island rendered in full (no `document` there). */
async function serverHtml(node: React.ReactNode): Promise<string> {
  vi.stubGlobal("document", undefined);
  try {
    const { prelude } = await prerender(node);
    return await new Response(prelude).text();
  } finally {
    vi.unstubAllGlobals();
  }
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("island", () => {
  it("is rendered in full on the server, kept as it is by hydration, and clicked again once its code is there", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const load = vi.fn(() => gate.then(() => Counter));
    const Block = island(load, { fallback: <p>placeholder</p> });
    // Made where there is no document, as on the server when the route's module loads.
    vi.stubGlobal("document", undefined);
    const ServerBlock = island(async () => Counter);
    vi.unstubAllGlobals();
    await new Promise((resolve) => setTimeout(resolve, 0));

    const html = await serverHtml(<ServerBlock label="Ratings" />);
    // In place in the HTML: no pending boundary that an inline script would fill (no JavaScript, no block).
    expect(html).toMatch(/^<div id="[^"]+"><section><h2>Ratings<\/h2>/);
    expect(html).not.toContain("<script");
    expect(html).toContain("clicked <!-- -->0<!-- --> times");
    expect(html).not.toContain("placeholder");

    const container = document.createElement("div");
    container.innerHTML = html;
    document.body.append(container);
    await act(async () => {
      hydrateRoot(container, <Block label="Ratings" />);
    });
    // The server's block is still there (not the placeholder) while its code has not come.
    expect(screen.getByRole("heading").textContent).toBe("Ratings");
    expect(screen.queryByText("placeholder")).toBeNull();

    // A click before the code: the island asks for it, then the live block gets the click.
    await act(async () => {
      screen.getByRole("button").click();
    });
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => {
      release();
      await gate;
    });
    await waitFor(() => expect(screen.getByRole("button").textContent).toBe("clicked 1 times"));
    // Live now: the next click counts directly, and the block is there once.
    await act(async () => {
      screen.getByRole("button").click();
    });
    expect(screen.getByRole("button").textContent).toBe("clicked 2 times");
    expect(screen.getAllByRole("heading")).toHaveLength(1);
  });

  it("shows its placeholder, then the block, on a page the browser renders itself", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const Block = island(() => gate.then(() => Counter), { fallback: <p>placeholder</p> });
    render(<Block label="Comments" />);
    expect(screen.getByText("placeholder")).toBeTruthy();
    await act(async () => {
      release();
      await gate;
    });
    await waitFor(() => expect(screen.getByRole("heading").textContent).toBe("Comments"));
    expect(screen.queryByText("placeholder")).toBeNull();
  });
});
