import { describe, expect, it } from "vitest";
import {
  appContentSecurityPolicy,
  appOrigin,
  appWindowPreferences,
  isAllowedNavigation,
  isTrustedSender,
} from "../../../electron/window-security.js";

describe("Electron window security", () => {
  it("turns on isolation and sandbox and turns off node in every form", () => {
    const prefs = appWindowPreferences("/x/preload.cjs");
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it("has a strict CSP: no inline or remote scripts, no objects, no framing", () => {
    expect(appContentSecurityPolicy).toContain("script-src 'self'");
    expect(appContentSecurityPolicy).not.toMatch(/script-src[^;]*unsafe/);
    expect(appContentSecurityPolicy).toContain("object-src 'none'");
    expect(appContentSecurityPolicy).toContain("frame-ancestors 'none'");
  });

  it("trusts only the app window's main frame on the app origin", () => {
    const ok = { frameUrl: `${appOrigin}/`, isMainFrame: true, isAppWindow: true };
    expect(isTrustedSender(ok)).toBe(true);
    expect(isTrustedSender({ ...ok, isMainFrame: false })).toBe(false);
    expect(isTrustedSender({ ...ok, isAppWindow: false })).toBe(false);
    expect(isTrustedSender({ ...ok, frameUrl: "https://evil.example/" })).toBe(false);
    expect(isTrustedSender({ ...ok, frameUrl: "file:///etc/passwd" })).toBe(false);
    expect(isTrustedSender({ ...ok, frameUrl: undefined })).toBe(false);
  });

  it("denies navigation away from the app", () => {
    expect(isAllowedNavigation(`${appOrigin}/settings`)).toBe(true);
    expect(isAllowedNavigation("https://example.com/")).toBe(false);
    expect(isAllowedNavigation("javascript:alert(1)")).toBe(false);
  });
});
