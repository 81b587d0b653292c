/**
 * Lucide icons as one SVG sprite (issue 9: HTML weight). Both page builds import a generated
 * module instead of `lucide-react`: each icon the code imports becomes a small component drawing
 * `<svg …><use href="/assets/icons-<hash>.svg#name"/></svg>` with lucide's attributes, and the
 * client build emits the sprite with every such icon's shapes once. A page then carries two
 * elements per icon instead of the icon's paths (the home page had 106 inline icons, 40 KB), and
 * the sprite is cached by the browser like any hashed asset. Tests (jsdom) keep the real package.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "vite";

const VIRTUAL = "\0dossard-icons";
const IMPORT = /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["']lucide-react["']/gs;

type IconNode = [string, Record<string, string | number>][];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(file, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(file);
  }
  return out;
}

/** Export names of lucide-react imported by the sources ("Map as MapIcon" → "Map"; types left out). */
export function importedIcons(files: readonly string[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    for (const match of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
      const whole = match[0].startsWith("import type");
      if (whole) continue;
      for (const part of match[1].split(",")) {
        const spec = part.trim();
        if (!spec || spec.startsWith("type ")) continue;
        names.add(spec.split(/\s+as\s+/)[0].trim());
      }
    }
  }
  return [...names].sort();
}

/** lucide-react's export names → icon module file names ("MapPin" → "map-pin"). */
function exportMap(lucideDir: string): Map<string, string> {
  const index = fs.readFileSync(path.join(lucideDir, "dist/esm/lucide-react.mjs"), "utf8");
  const map = new Map<string, string>();
  for (const line of index.matchAll(/export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs';/g)) {
    for (const part of line[1].split(",")) {
      const alias = part.trim().match(/^default as (\w+)$/)?.[1];
      if (alias) map.set(alias, line[2]);
    }
  }
  return map;
}

const escapeAttribute = (value: string | number) => String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;");

function symbol(id: string, node: IconNode): string {
  const shapes = node
    .map(([tag, attributes]) => {
      const attrs = Object.entries(attributes)
        .filter(([name]) => name !== "key")
        .map(([name, value]) => `${name}="${escapeAttribute(value)}"`)
        .join(" ");
      return `<${tag} ${attrs}/>`;
    })
    .join("");
  return `<symbol id="${id}" viewBox="0 0 24 24">${shapes}</symbol>`;
}

export function iconSprite(root: string): Plugin {
  let icons: { name: string; file: string }[] = [];
  let sprite = "";
  let spriteName = "";
  return {
    name: "dossard:icon-sprite",
    enforce: "pre",
    async buildStart() {
      const lucideDir = path.join(root, "node_modules/lucide-react");
      const files = exportMap(lucideDir);
      const names = importedIcons(["app", "features", "shared"].flatMap((d) => sourceFiles(path.join(root, d))));
      icons = names.map((name) => {
        const file = files.get(name);
        if (!file) throw new Error(`lucide-react has no icon named ${name}`);
        return { name, file };
      });
      const symbols: string[] = [];
      for (const file of [...new Set(icons.map((i) => i.file))].sort()) {
        const module = (await import(pathToFileURL(path.join(lucideDir, "dist/esm/icons", `${file}.mjs`)).href)) as {
          __iconData: { node: IconNode };
        };
        symbols.push(symbol(file, module.__iconData.node));
      }
      sprite = `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join("")}</svg>`;
      spriteName = `assets/icons-${createHash("sha256").update(sprite).digest("hex").slice(0, 10)}.svg`;
      // Same content, same name in both builds; the browser's build ships the file.
      if (this.environment.config.consumer === "client" && this.environment.mode === "build") {
        this.emitFile({ type: "asset", fileName: spriteName, source: sprite });
      }
    },
    // `react-router dev` (and typegen) run Vite's server: the sprite is answered from memory there.
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if (request.url !== `/${spriteName}`) return next();
        response.setHeader("Content-Type", "image/svg+xml");
        response.end(sprite);
      });
    },
    resolveId(source) {
      return source === "lucide-react" ? VIRTUAL : null;
    },
    load(id) {
      if (id !== VIRTUAL) return null;
      const exports = icons.map(({ name, file }) => `export const ${name} = icon(${JSON.stringify(file)}, "${name}");`);
      return `import { createElement, forwardRef } from "react";
const SPRITE = ${JSON.stringify(`/${spriteName}`)};
function icon(id, displayName) {
  // Lucide's look (no fill, round 2 px strokes, 24 px) comes from the .lucide rule of app.css; only
  // what differs from it is written on the element.
  const Icon = forwardRef(function Icon({ size, strokeWidth, color, absoluteStrokeWidth, className, children, ...rest }, ref) {
    const labelled = Boolean(children) || Object.keys(rest).some((k) => k.startsWith("aria-") || k === "role" || k === "title");
    const width = absoluteStrokeWidth && strokeWidth != null ? (Number(strokeWidth) * 24) / Number(size ?? 24) : strokeWidth;
    return createElement(
      "svg",
      {
        ref,
        className: className ? "lucide " + className : "lucide",
        ...(size != null ? { width: size, height: size } : {}),
        ...(width != null ? { strokeWidth: width } : {}),
        ...(color != null ? { stroke: color } : {}),
        ...(labelled ? {} : { "aria-hidden": "true" }),
        ...rest,
      },
      children,
      createElement("use", { href: SPRITE + "#" + id }),
    );
  });
  Icon.displayName = displayName;
  return Icon;
}
${exports.join("\n")}
`;
    },
  };
}
