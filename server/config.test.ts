import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.server.ts";

describe("configuration", () => {
  it("runs with no settings at all", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe("http://localhost:3000");
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.DEMO_EVENTS).toBe(3200);
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
  });
});
