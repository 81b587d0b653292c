import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

const ALL_LANGUAGES = fileURLToPath(new URL("./shared/i18n/resources.ts", import.meta.url));
const PAGE_LANGUAGE = fileURLToPath(new URL("./shared/i18n/resources.client.ts", import.meta.url));

/**
 * The browser build imports shared/i18n/resources.client.ts wherever shared/i18n/resources.ts is
 * imported: only the page's language, read from the page, instead of every catalogue of both
 * languages in the JavaScript (see shared/i18n/page-bundle.ts). The server build is unchanged.
 */
function pageLanguageOnly(): Plugin {
  return {
    name: "dossard:page-language-only",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.config.consumer === "client",
    async resolveId(source, importer, options) {
      if (!source.endsWith("/resources.ts")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === ALL_LANGUAGES ? PAGE_LANGUAGE : resolved;
    },
  };
}

export default defineConfig({
  plugins: [pageLanguageOnly(), tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: { sourcemap: false },
});
