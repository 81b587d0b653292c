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

/** Chunks above this size are worth a warning: they slow the pages that load them. */
const CHUNK_WARNING_KB = 500;
/**
 * MapLibre (about 1.1 MB) loads only when a map nears the viewport, in a chunk of its own: its
 * size is known and accepted. Every other chunk is still held to CHUNK_WARNING_KB, by this plugin
 * instead of Vite's global limit (which would warn about MapLibre at every build).
 */
const LARGE_BY_DESIGN = /^assets\/maplibre-gl-[\w-]+\.js$/;

function chunkSizes(): Plugin {
  return {
    name: "dossard:chunk-sizes",
    apply: "build",
    generateBundle(_options, bundle) {
      // What browsers download; the server's bundle is read once at start.
      if (this.environment.config.consumer !== "client") return;
      for (const [file, output] of Object.entries(bundle)) {
        if (output.type !== "chunk" || LARGE_BY_DESIGN.test(file)) continue;
        const kb = Buffer.byteLength(output.code) / 1000;
        if (kb > CHUNK_WARNING_KB) this.warn(`${file} is ${Math.round(kb)} kB, above ${CHUNK_WARNING_KB} kB`);
      }
    },
  };
}

export default defineConfig({
  plugins: [standIns(), iconSprite(here(".")), tailwindcss(), reactRouter(), chunkSizes()],
  resolve: { tsconfigPaths: true },
  build: {
    sourcemap: false,
    // Held per chunk by chunkSizes(), MapLibre's own chunk excepted.
    chunkSizeWarningLimit: 1_500,
    // Rolldown's "slow plugin" notice fires on a busy machine and says nothing about the code.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
