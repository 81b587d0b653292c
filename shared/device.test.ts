import { afterEach, describe, expect, it, vi } from "vitest";
import { APP_UA_MARKER, detectDevice, isCrawler, isMobile, isOwnApp, isServer } from "./device.ts";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";
const DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";

afterEach(() => vi.unstubAllGlobals());

describe("isMobile", () => {
  it("matches iphone, ipad, ipod, android, blackberry and windows phone in any case", () => {
    expect(isMobile(IPHONE)).toBe(true);
    expect(isMobile(ANDROID)).toBe(true);
    expect(isMobile("Mozilla/5.0 (iPad; CPU OS 12_0 like Mac OS X)")).toBe(true);
    expect(isMobile("Mozilla/5.0 (iPod touch; CPU iPhone OS 12_0)")).toBe(true);
    expect(isMobile("BlackBerry9700/5.0.0.351")).toBe(true);
    expect(isMobile("Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Lumia 950)")).toBe(true);
    expect(isMobile("WINDOWS PHONE")).toBe(true);
  });

  it("does not match desktops or an absent user agent", () => {
    expect(isMobile(DESKTOP)).toBe(false);
    expect(isMobile("Mozilla/5.0 (Windows NT 10.0)")).toBe(false);
    expect(isMobile(undefined)).toBe(false);
    expect(isMobile(null)).toBe(false);
  });
});

describe("isOwnApp", () => {
  it("detects the app marker", () => {
    expect(APP_UA_MARKER).toBe("DossardApp");
    expect(isOwnApp(`${ANDROID} DossardApp/2.3.1`)).toBe(true);
    expect(isOwnApp(ANDROID)).toBe(false);
  });
});

describe("isCrawler", () => {
  it("matches bot, google or bing", () => {
    expect(isCrawler(GOOGLEBOT)).toBe(true);
    expect(isCrawler(BINGBOT)).toBe(true);
    expect(isCrawler("Google-InspectionTool/1.0")).toBe(true);
    expect(isCrawler("facebookexternalhit/1.1 BOT")).toBe(true);
    expect(isCrawler(DESKTOP)).toBe(false);
    expect(isCrawler(IPHONE)).toBe(false);
  });
});

describe("isServer and defaults", () => {
  it("is true without a window object", () => {
    expect(isServer()).toBe(true);
    vi.stubGlobal("window", {});
    expect(isServer()).toBe(false);
  });

  it("reads navigator.userAgent when no user agent is passed", () => {
    expect(isMobile()).toBe(isMobile(globalThis.navigator?.userAgent));
    vi.stubGlobal("navigator", { userAgent: IPHONE });
    expect(isMobile()).toBe(true);
    expect(detectDevice()).toEqual({ mobile: true, app: false, crawler: false, server: true });
    expect(detectDevice(`${GOOGLEBOT} DossardApp`)).toEqual({ mobile: false, app: true, crawler: true, server: true });
  });
});
