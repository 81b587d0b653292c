#!/usr/bin/env node
// Run by `npm install` (postinstall). @react-router/dev 7 creates its internal Vite servers (the
// config loader of typegen and build, the build's child compiler) with `envFile: false`, an option
// Vite 8.1 deprecated: every typegen and build printed "The `envFile` option is deprecated, please
// use `envDir: false` instead." up to three times, and no project setting reaches those servers.
// React Router fixed it in 8.x (remix-run/react-router#15230: `envDir: false`, which Vite 8 treats
// exactly as it treats `envFile: false`); 7.18.4 is the last 7.x. This applies the same one-word
// change to the installed 7.x, and does nothing once the package no longer has it (e.g. on 8.x).
// Usage: node scripts/patch-dependencies.mjs [node_modules folder]
import fs from "node:fs";
import path from "node:path";

const nodeModules = path.resolve(process.argv[2] ?? "node_modules");
const pkg = path.join(nodeModules, "@react-router/dev");
const FILES = ["dist/cli/index.js", "dist/vite.js", "dist/vite/cloudflare.js"];

if (fs.existsSync(path.join(pkg, "package.json"))) {
  const { version } = JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8"));
  let patched = 0;
  for (const file of FILES) {
    const full = path.join(pkg, file);
    if (!version.startsWith("7.") || !fs.existsSync(full)) continue;
    const source = fs.readFileSync(full, "utf8");
    const fixed = source.replaceAll(/\benvFile: false,/g, "envDir: false,");
    if (fixed !== source) {
      fs.writeFileSync(full, fixed);
      patched++;
    }
  }
  if (patched) console.log(`@react-router/dev ${version}: envFile → envDir (Vite 8 deprecation) in ${patched} files`);
}
