import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const ALL_LANGUAGES = here("./shared/i18n/resources.ts");

/** What the browser build imports instead, for the first load's weight (see each file's comment). */
const BROWSER_STAND_INS: Record<string, string> = {
  // Only the page's language, read from the page, instead of every catalogue of both languages.
  [ALL_LANGUAGES]: here("./shared/i18n/resources.client.ts"),
  // The part of i18next and react-i18next the pages use, checked against them by their tests.
  i18next: here("./shared/i18n/i18next.client.ts"),
  "react-i18next": here("./shared/i18n/react-i18next.client.tsx"),
};

/** The client build imports BROWSER_STAND_INS in place of their keys; the server build is unchanged. */
function browserStandIns(): Plugin {
  return {
    name: "dossard:browser-stand-ins",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.config.consumer === "client",
    async resolveId(source, importer, options) {
      if (BROWSER_STAND_INS[source]) return BROWSER_STAND_INS[source];
      if (!source.endsWith("/resources.ts")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && (BROWSER_STAND_INS[resolved.id] ?? resolved);
    },
  };
}

export default defineConfig({
  plugins: [browserStandIns(), tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: { sourcemap: false },
});
