import fs from "node:fs";
import path from "node:path";

export type AppVersion = { app: string; commit: string | null; node: string };

/**
 * The running version: package.json's version, the git commit when the site runs from a clone
 * (read from .git, no git command), and Node's version. Read once.
 */
export function appVersion(root = process.cwd()): AppVersion {
  let app = process.env.npm_package_version ?? "";
  try {
    app = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version?: string }).version ?? app;
  } catch {
    // Not beside its package.json (a bundle): the environment's word, if any.
  }
  return { app: app || "unknown", commit: gitCommit(root), node: process.version };
}

/** The git directory: `.git`, or where a worktree's `.git` file points. */
function gitDir(root: string): string {
  const dotGit = path.join(root, ".git");
  if (fs.statSync(dotGit).isFile()) {
    const pointer = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, "utf8"))?.[1]?.trim();
    if (pointer) return path.resolve(root, pointer);
  }
  return dotGit;
}

function gitCommit(root: string): string | null {
  try {
    const dir = gitDir(root);
    const head = fs.readFileSync(path.join(dir, "HEAD"), "utf8").trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head.slice(0, 12);
    const ref = /^ref: (.+)$/.exec(head)?.[1];
    if (!ref) return null;
    // A worktree's branch refs live in the main repository (its commondir).
    const common = fs.existsSync(path.join(dir, "commondir"))
      ? path.resolve(dir, fs.readFileSync(path.join(dir, "commondir"), "utf8").trim())
      : dir;
    for (const base of [dir, common]) {
      const loose = path.join(base, ref);
      if (fs.existsSync(loose)) return fs.readFileSync(loose, "utf8").trim().slice(0, 12);
    }
    const packed = fs.readFileSync(path.join(common, "packed-refs"), "utf8");
    const line = packed.split("\n").find((l) => l.endsWith(` ${ref}`));
    return line ? line.slice(0, 12) : null;
  } catch {
    return null;
  }
}
