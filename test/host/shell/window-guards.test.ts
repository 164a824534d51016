// The shell's permission and link answers, first as plain functions, then wired: electron/main.ts
// loaded against a recording stand-in for Electron (the binary can't run here), so what the app's
// session and web contents are given is the thing under test.
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { externalLinkUrl } from "../../../electron/host/rpc/shared-rules/external-links.js";
import { grantedPermissions, isPermissionGranted, openOutside } from "../../../electron/window-guards.js";
import { appOrigin } from "../../../electron/window-security.js";

const appPage = { requestingUrl: `${appOrigin}/`, isMainFrame: true };

describe("permissions", () => {
  it("grants the app's page exactly what it uses: writing to the clipboard", () => {
    expect(grantedPermissions).toEqual(["clipboard-sanitized-write"]);
    expect(isPermissionGranted("clipboard-sanitized-write", appPage)).toBe(true);
  });

  it("refuses everything else, and refuses even that to plugin frames and other pages", () => {
    for (const permission of ["clipboard-read", "notifications", "media", "geolocation", "openExternal"]) {
      expect(isPermissionGranted(permission, appPage), permission).toBe(false);
    }
    const write = "clipboard-sanitized-write";
    expect(isPermissionGranted(write, { ...appPage, isMainFrame: false })).toBe(false);
    expect(isPermissionGranted(write, { requestingUrl: "hermes-plugin://charts/", isMainFrame: false })).toBe(
      false,
    );
    expect(isPermissionGranted(write, { requestingUrl: "https://evil.example/", isMainFrame: true })).toBe(
      false,
    );
    expect(isPermissionGranted(write, { isMainFrame: true })).toBe(false);
  });
});

describe("links that would leave the app", () => {
  it("are http:, https: and mailto: links only", () => {
    expect(externalLinkUrl("https://example.com/a?b=c#d")).toBe("https://example.com/a?b=c#d");
    expect(externalLinkUrl("http://example.com")).toBe("http://example.com/");
    expect(externalLinkUrl("mailto:someone@example.com")).toBe("mailto:someone@example.com");
    expect(externalLinkUrl("HTTPS://Example.com/")).toBe("https://example.com/");
    for (const href of [
      "javascript:alert(1)",
      "file:///etc/passwd",
      "data:text/html,hi",
      "app://hermes/",
      "hermes-plugin://charts/",
      "irc://irc.example.org/chan",
      "ftp://example.com/",
      "/relative/path",
      "#fn-1",
      "",
      null,
      undefined,
    ]) {
      expect(externalLinkUrl(href), String(href)).toBeNull();
    }
  });

  it("go to the system for those schemes and nowhere for the rest", async () => {
    const opened: string[] = [];
    const openExternal = async (url: string) => void opened.push(url);
    expect(openOutside("https://example.com/docs", openExternal)).toBe(true);
    expect(openOutside("mailto:a@example.com", openExternal)).toBe(true);
    expect(openOutside("file:///etc/passwd", openExternal)).toBe(false);
    expect(openOutside("javascript:alert(1)", openExternal)).toBe(false);
    expect(opened).toEqual(["https://example.com/docs", "mailto:a@example.com"]);
  });

  it("a system that fails to open one is logged, without the link's address", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    openOutside("https://example.com/?token=secret", () => Promise.reject(new Error("no browser")));
    await vi.waitFor(() => expect(logged).toHaveBeenCalledTimes(1));
    expect(String(logged.mock.calls[0])).toContain("https: link");
    expect(String(logged.mock.calls[0])).not.toContain("secret");
    logged.mockRestore();
  });
});

// --- electron/main.ts, wired -------------------------------------------------------------------

type RequestHandler = (
  wc: unknown,
  permission: string,
  cb: (granted: boolean) => void,
  details: object,
) => void;
type CheckHandler = (wc: unknown, permission: string, origin: string, details: object) => boolean;

const electron = vi.hoisted(() => {
  const appEvents = new Map<string, (...args: unknown[]) => void>();
  return {
    appEvents,
    openedExternally: [] as string[],
    permissionRequest: null as RequestHandler | null,
    permissionCheck: null as CheckHandler | null,
    ready: null as Promise<void> | null,
  };
});

vi.mock("electron", async () => {
  const { EventEmitter } = await import("node:events");
  class FakeWindow extends EventEmitter {
    readonly webContents = new EventEmitter();
    loadURL = () => Promise.resolve();
    show = () => undefined;
  }
  const ready = Promise.resolve();
  electron.ready = ready;
  return {
    app: {
      enableSandbox: () => undefined,
      requestSingleInstanceLock: () => true,
      quit: () => undefined,
      exit: () => undefined,
      whenReady: () => ready,
      getPath: () => tmpdir(),
      on: (event: string, listener: (...args: unknown[]) => void) => electron.appEvents.set(event, listener),
    },
    BrowserWindow: Object.assign(FakeWindow, { getAllWindows: () => [] }),
    dialog: { showErrorBox: () => undefined },
    ipcMain: { handle: () => undefined },
    net: { fetch: () => Promise.reject(new Error("not in this test")) },
    protocol: { registerSchemesAsPrivileged: () => undefined, handle: () => undefined },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: RequestHandler) => (electron.permissionRequest = handler),
        setPermissionCheckHandler: (handler: CheckHandler) => (electron.permissionCheck = handler),
      },
    },
    shell: {
      openExternal: async (url: string) => void electron.openedExternally.push(url),
      openPath: async () => "",
    },
  };
});

// The host and the window's saved bounds are not what this test is about.
vi.mock("../../../electron/host/create-host.js", () => ({
  createHost: () => ({
    plugins: { pageSite: () => null },
    pageSessions: { servesWith: () => false, endConnection: () => undefined },
    router: { handle: () => undefined },
    events: { subscribe: () => () => undefined },
    close: async () => undefined,
  }),
}));
vi.mock("../../../electron/host/secrets/vault.js", () => ({ createKeytarVault: () => ({}) }));
vi.mock("../../../electron/window-state.js", () => ({
  createWindowStateKeeper: () => ({ initialBounds: {}, manage: () => undefined }),
}));

const home = mkdtempSync(join(tmpdir(), "hermes-guards-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("electron/main.ts", () => {
  async function loadMain() {
    process.env.HERMES_DESKTOP_HOME = home;
    await import("../../../electron/main.js");
    await electron.ready;
    await vi.waitFor(() => expect(electron.permissionRequest).not.toBeNull());
  }

  it("sets the permission handlers: the clipboard write for the app's page, nothing else", async () => {
    await loadMain();
    const ask = (permission: string, details: object) =>
      new Promise<boolean>((resolve) => electron.permissionRequest!({}, permission, resolve, details));
    expect(await ask("clipboard-sanitized-write", appPage)).toBe(true);
    expect(await ask("clipboard-read", appPage)).toBe(false);
    expect(await ask("notifications", appPage)).toBe(false);
    expect(
      await ask("clipboard-sanitized-write", { requestingUrl: "https://x.example/", isMainFrame: true }),
    ).toBe(false);
    expect(electron.permissionCheck!({}, "clipboard-sanitized-write", appOrigin, { isMainFrame: true })).toBe(
      true,
    );
    expect(electron.permissionCheck!({}, "media", appOrigin, { isMainFrame: true })).toBe(false);
  });

  it("opens web and mail links in the system, never in the app's window", async () => {
    await loadMain();
    const contents = Object.assign(new EventEmitter(), {
      id: 7,
      windowOpen: null as ((details: { url: string }) => { action: string }) | null,
      setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
        this.windowOpen = handler;
      },
    });
    electron.appEvents.get("web-contents-created")!({}, contents);

    expect(contents.windowOpen!({ url: "https://example.com/docs" })).toEqual({ action: "deny" });
    expect(contents.windowOpen!({ url: "javascript:alert(1)" })).toEqual({ action: "deny" });
    expect(contents.windowOpen!({ url: "file:///etc/passwd" })).toEqual({ action: "deny" });

    const navigate = (url: string) => {
      const event = { prevented: false, preventDefault: () => (event.prevented = true) };
      contents.emit("will-navigate", event, url);
      return event.prevented;
    };
    expect(navigate("mailto:a@example.com")).toBe(true);
    expect(navigate("irc://irc.example.org/")).toBe(true);
    expect(navigate(`${appOrigin}/`)).toBe(false);
    await vi.waitFor(() =>
      expect(electron.openedExternally).toEqual(["https://example.com/docs", "mailto:a@example.com"]),
    );
  });
});
