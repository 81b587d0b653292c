import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeAll } from "vitest";
import "@testing-library/jest-dom/vitest";
import "../shared/i18n/test-init.ts";

// findBy… and waitFor wait for a condition and return as soon as it holds; their 1 s default
// deadline is too short for lazily loaded controls while `npm test` keeps both cores busy.
configure({ asyncUtilTimeout: 5_000 });

// The component files share one page per worker (vitest.config.ts: isolate false): each starts
// from a blank one, as in a fresh environment.
beforeAll(() => {
  document.body.innerHTML = "";
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, "", "/");
});

afterEach(() => cleanup());
