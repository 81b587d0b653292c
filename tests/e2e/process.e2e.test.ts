import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, spawnServer, startServer } from "./server-process.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-process-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function upcomingIds(baseURL: string): Promise<number[]> {
  const res = await fetch(`${baseURL}/api/events_group/upcoming?limit=20`);
  return (await res.json()).events.map((e: { id: number }) => e.id);
}

describe("the server process", () => {
  it("stops at once with a message naming a bad setting", async () => {
    const { child, output } = spawnServer({ DATA_DIR: dataDir, PORT: "not-a-port", DATABASE_URL: "mysql://nope" });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(output()).toContain("Invalid configuration");
    expect(output()).toMatch(/PORT: /);
    expect(output()).toMatch(/DATABASE_URL: must start with postgres/);
  });

  /** Runs the server with a bad setting: it must stop at once (before the database), naming it. */
  async function stopsAtOnce(env: Record<string, string>): Promise<{ code: unknown; output: string }> {
    const { child, output } = spawnServer({ DATA_DIR: dataDir, ...env });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    return { code, output: output() };
  }

  it.each([
    ["a HOST that is not a host name", { HOST: "not a host" }, /HOST: must be an IP address or a host name/],
    ["a HOST that does not resolve", { HOST: "no-such-host.invalid" }, /HOST: cannot listen on no-such-host\.invalid/],
    [
      "a TRUSTED_PROXIES entry that is not an address",
      { TRUSTED_PROXIES: "127.0.0.1,everyone" },
      /TRUSTED_PROXIES: "everyone"/,
    ],
  ])("stops before opening the database with %s", async (_what, env, message) => {
    const { code, output } = await stopsAtOnce(env);
    expect(code).toBe(1);
    expect(output).toMatch(message);
    expect(output).not.toMatch(/database ready/);
  });

  it("names a data folder it cannot write to, before opening the database", async () => {
    const file = path.join(dataDir, "not-a-folder");
    fs.writeFileSync(file, "");
    const { code, output } = await stopsAtOnce({ DATA_DIR: path.join(file, "data") });
    expect(code).toBe(1);
    expect(output).toContain(`DATA_DIR: the folder ${path.join(file, "data")} is not writable`);
    expect(output).not.toMatch(/PGlite|database ready/);
  });

  it("names a PORT already taken, before opening the database", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const { code, output } = await stopsAtOnce({ PORT: String(port) });
      expect(code).toBe(1);
      expect(output).toMatch(new RegExp(`PORT: cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\)`));
      expect(output).not.toMatch(/database ready/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("seeds on first start, stops on SIGINT, restarts through npm start quietly without seeding again, and stops when npm is sent SIGTERM", async () => {
    const first = await startServer({ DATA_DIR: dataDir, DEMO_EVENTS: "60", LOG_LEVEL: "info" });
    expect(first.output()).toMatch(/demo catalogue: 60 events/);
    expect(first.output()).toContain(`Dossard is running on ${first.baseURL}`);
    const before = await upcomingIds(first.baseURL);
    expect(before.length).toBeGreaterThan(0);

    // A fresh install prints its one-time setup link; create-admin works while the server runs.
    const link = /No administrator yet\. Create the first one at (\S+)/.exec(first.output())?.[1];
    expect(link).toMatch(new RegExp(`^${first.baseURL}/installation/[\\w-]{32}$`));
    expect(await (await fetch(link as string)).text()).toContain('name="token"');
    const cli = spawnSync(
      process.execPath,
      ["--import", "tsx", "scripts/create-admin.ts", "--email", "ops@example.fr", "--password", "Col de Vars 2108"],
      { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" }, encoding: "utf8", timeout: 60_000 },
    );
    expect(cli.stderr).toBe("");
    expect(cli.stdout).toMatch(/^Created admin #\d+ <ops@example\.fr>/);
    expect(await (await fetch(link as string)).text()).not.toContain('name="token"');
    expect(await first.stop("SIGINT")).toBe(0);
    expect(first.output()).toContain("SIGINT received, closing");

    // Again, as a newcomer starts it: `npm start` (the build is there), default log settings.
    const port = await freePort();
    const baseURL = `http://127.0.0.1:${port}`;
    const npm = spawn("npm", ["start"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: baseURL,
        DEMO_EVENTS: "60",
        DEMO_MEMBERS: "0",
        LOG_FORMAT: "",
        LOG_LEVEL: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    npm.stdout.on("data", (chunk) => (output += chunk));
    npm.stderr.on("data", (chunk) => (output += chunk));
    const healthy = async () => {
      try {
        return (await fetch(`${baseURL}/healthz`)).ok;
      } catch {
        return false;
      }
    };
    try {
      await expect.poll(healthy, { timeout: 110_000, interval: 250 }).toBe(true);
      expect(await upcomingIds(baseURL)).toEqual(before);
      for (let i = 0; i < 5; i++) await fetch(`${baseURL}/api/sports`);
      await expect.poll(() => output).toContain(`Dossard is running on ${baseURL}`);
      expect(output).not.toMatch(/demo catalogue: 60 events|No administrator yet/);
      // No JSON records, no line per request, no Fastify listening lines: a few lines for people.
      expect(output).not.toMatch(/"level":|\/api\/sports|Server listening at/);
      expect(output.trim().split("\n").length, output).toBeLessThan(12);

      // npm dies, and the shell under it, without passing the signal on: the server stops anyway.
      npm.kill("SIGTERM");
      await expect.poll(healthy, { timeout: 15_000, interval: 250 }).toBe(false);
      await expect.poll(() => output, { timeout: 10_000 }).toContain("SIGTERM received, closing");
    } finally {
      if (npm.exitCode === null) npm.kill("SIGKILL");
    }
    // The port is free again: nothing of the server is left.
    const probe = net.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once("error", reject);
      probe.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => probe.close(resolve));
  }, 300_000);
});
