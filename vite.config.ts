import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { iconSprite } from "./scripts/vite/icon-sprite.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const ALL_LANGUAGES = here("./shared/i18n/resources.ts");

/** Only the page's language, read from the page, instead of every catalogue of both languages. */
const BROWSER_STAND_INS: Record<string, string> = {
  [ALL_LANGUAGES]: here("./shared/i18n/resources.client.ts"),
};

/**
 * The part of i18next and react-i18next the pages use, checked against them by their tests: in the
 * browser for the first load's weight, on the server for the render's cost (i18next's per-call
 * work was a tenth of a page's render).
 */
const STAND_INS: Record<string, string> = {
  i18next: here("./shared/i18n/i18next-lite.ts"),
  "react-i18next": here("./shared/i18n/react-i18next-lite.tsx"),
};

/** Both builds import STAND_INS in place of their keys; the client build BROWSER_STAND_INS too. */
function standIns(): Plugin {
  return {
    name: "dossard:stand-ins",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (STAND_INS[source]) return { id: STAND_INS[source], external: false };
      if (this.environment.config.consumer !== "client") return null;
      if (BROWSER_STAND_INS[source]) return BROWSER_STAND_INS[source];
      if (!source.endsWith("/resources.ts")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && (BROWSER_STAND_INS[resolved.id] ?? resolved);
    },
  };
}

export default defineConfig({
  plugins: [standIns(), iconSprite(here(".")), tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: { sourcemap: false },
});
