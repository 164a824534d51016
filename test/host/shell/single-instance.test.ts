// The single-instance flow of electron/main.ts against a stand-in for Electron's `app`: a second
// instance quits before any work (no protocol, no sandbox switch, no whenReady), the first runs it
// and brings its window forward when another launch hands over.
import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const calls: string[] = [];
let lockHeld = true;

class FakeApp extends EventEmitter {
  isPackaged = false;
  requestSingleInstanceLock = () => (calls.push("requestSingleInstanceLock"), lockHeld);
  quit = () => void calls.push("quit");
  exit = () => void calls.push("exit");
  enableSandbox = () => void calls.push("enableSandbox");
  // Never ready: the test is about what is scheduled, not the host it would start.
  whenReady = () => (calls.push("whenReady"), new Promise<void>(() => undefined));
  getPath = () => "/unused";
  getVersion = () => "0.0.0-test";
}
const fakeApp = new FakeApp();

vi.mock("electron", () => {
  const protocol = { registerSchemesAsPrivileged: () => void calls.push("registerSchemesAsPrivileged") };
  const electron = {
    app: fakeApp,
    protocol,
    BrowserWindow: { getAllWindows: () => [] },
    dialog: {},
    ipcMain: { on: () => undefined, handle: () => undefined },
    net: {},
    session: {},
    shell: {},
    screen: {},
    utilityProcess: {},
  };
  return { ...electron, default: electron };
});

beforeEach(() => {
  vi.resetModules();
  calls.length = 0;
  fakeApp.removeAllListeners();
});
afterEach(() => {
  lockHeld = true;
});

/** A BrowserWindow stand-in with the state bringForward reads. */
function fakeWindow(state: { minimized?: boolean; visible?: boolean; destroyed?: boolean }) {
  const did: string[] = [];
  return {
    did,
    isDestroyed: () => state.destroyed ?? false,
    isMinimized: () => state.minimized ?? false,
    isVisible: () => state.visible ?? true,
    restore: () => void did.push("restore"),
    show: () => void did.push("show"),
    focus: () => void did.push("focus"),
  };
}

describe("a second launch of the desktop app", () => {
  it("quits at once: nothing of the app is started in it", async () => {
    lockHeld = false;
    await import("../../../electron/main.js");
    expect(calls).toEqual(["requestSingleInstanceLock", "quit"]);
    expect(fakeApp.listenerCount("second-instance")).toBe(0);
  });

  it("the instance holding the lock starts the app and listens for later launches", async () => {
    await import("../../../electron/main.js");
    expect(calls).toEqual([
      "requestSingleInstanceLock",
      "registerSchemesAsPrivileged",
      "enableSandbox",
      "whenReady",
    ]);
    expect(fakeApp.listenerCount("second-instance")).toBe(1);
    // Before its window exists a handed-over launch is a no-op, not a crash.
    expect(() => fakeApp.emit("second-instance", {}, [], "/")).not.toThrow();
  });
});

describe("bringing the first window forward", () => {
  it("restores a minimised window and focuses it", async () => {
    const { bringForward } = await import("../../../electron/single-instance.js");
    const window = fakeWindow({ minimized: true });
    bringForward(window);
    expect(window.did).toEqual(["restore", "focus"]);
  });

  it("shows a hidden window (closed to the tray or not yet shown) and focuses it", async () => {
    const { bringForward } = await import("../../../electron/single-instance.js");
    const window = fakeWindow({ visible: false });
    bringForward(window);
    expect(window.did).toEqual(["show", "focus"]);
  });

  it("leaves a destroyed window alone", async () => {
    const { bringForward } = await import("../../../electron/single-instance.js");
    const window = fakeWindow({ destroyed: true });
    bringForward(window);
    expect(window.did).toEqual([]);
  });

  it("the running instance brings its window forward on a second launch", async () => {
    const { runAsSingleInstance } = await import("../../../electron/single-instance.js");
    const window = fakeWindow({ minimized: true });
    let started = 0;
    expect(
      runAsSingleInstance(
        fakeApp,
        () => started++,
        () => window,
      ),
    ).toBe(true);
    expect(started).toBe(1);
    fakeApp.emit("second-instance", {}, ["hermes-desktop"], "/");
    expect(window.did).toEqual(["restore", "focus"]);
  });
});
