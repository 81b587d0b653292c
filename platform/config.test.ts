import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, checkDataDir, checkListen, loadConfig } from "./config.server.ts";

describe("configuration", () => {
  it("runs with no settings at all", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe("http://localhost:3000");
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.DEMO_EVENTS).toBe(7000);
  });

  it("derives the public URL from the port and trims a trailing slash", () => {
    expect(loadConfig({ PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(loadConfig({ PUBLIC_URL: "https://dossard.example/" }).PUBLIC_URL).toBe("https://dossard.example");
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", PORT: "" }).DATABASE_URL).toBeUndefined();
  });

  it("stops with a message naming each bad variable", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must start with postgres/);
    expect(() => loadConfig({ PUBLIC_URL: "not a url", LOG_LEVEL: "loud" })).toThrow(/PUBLIC_URL[\s\S]*LOG_LEVEL/);
    expect(() => loadConfig({ LOG_FORMAT: "xml" })).toThrow(/LOG_FORMAT/);
    expect(loadConfig({}).LOG_FORMAT).toBe("human");
  });

  it("trusts no proxy by default, and takes a list of addresses and ranges", () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: " 127.0.0.1, 10.0.0.0/8,::1, fd00::/8 ,loopback" }).TRUSTED_PROXIES).toEqual([
      "127.0.0.1",
      "10.0.0.0/8",
      "::1",
      "fd00::/8",
      "loopback",
    ]);
  });

  it.each(["everyone", "127.0.0.1/33", "10.0.0.0/8/8", "300.1.1.1", "true", "*"])(
    "refuses TRUSTED_PROXIES=%s, naming it",
    (value) => {
      expect(() => loadConfig({ TRUSTED_PROXIES: `127.0.0.1,${value}` })).toThrow(/TRUSTED_PROXIES: "/);
    },
  );

  it.each(["not a host", "host:3000", "http://localhost", "-bad.example"])("refuses HOST=%j, naming it", (value) => {
    expect(() => loadConfig({ HOST: value })).toThrow(/HOST: must be an IP address or a host name/);
  });

  it("accepts host names and addresses for HOST", () => {
    for (const host of ["localhost", "0.0.0.0", "::", "127.0.0.1", "dossard.example"]) {
      expect(loadConfig({ HOST: host }).HOST).toBe(host);
    }
  });

  it("names a HOST that cannot be listened on, and a PORT already taken", async () => {
    await expect(checkListen({ HOST: "no-such-host.invalid", PORT: 0 })).rejects.toThrow(
      /HOST: cannot listen on no-such-host\.invalid:0/,
    );
    await expect(checkListen({ HOST: "127.0.0.1", PORT: 0 })).resolves.toBeUndefined();
  });

  it("names a data folder that cannot be written to", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-config-"));
    try {
      const file = path.join(dir, "a-file");
      fs.writeFileSync(file, "");
      const config = loadConfig({ DATA_DIR: path.join(file, "data") });
      expect(() => checkDataDir(config)).toThrow(ConfigError);
      expect(() => checkDataDir(config)).toThrow(`DATA_DIR: the folder ${config.dataDir} is not writable (ENOTDIR)`);
      expect(() => checkDataDir(loadConfig({ DATA_DIR: path.join(dir, "new") }))).not.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
