// The window's own state through electron-store, against a stand-in for the Electron APIs it
// touches (app, ipcMain, screen) and a recording window; the file on disk is real.
import { parseRouteFragment, routeFragment, type AppRoute } from "../../../renderer/src/stores/app-route.js";
import { EventEmitter } from "node:events";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  placeWindow,
  routeOf,
  sanitizeRoute,
  sanitizeWindowState,
  type DisplayArea,
  type Rect,
} from "../../../electron/window-placement.js";
import { tempHome } from "../support/temp-home.js";

const laptop: DisplayArea = { id: 1, workArea: { x: 0, y: 0, width: 1440, height: 870 } };
const monitor: DisplayArea = { id: 2, workArea: { x: 1440, y: 0, width: 2560, height: 1400 } };
let displays: DisplayArea[] = [laptop, monitor];

vi.mock("electron", () => ({
  default: {
    app: { getPath: () => "/unused", getVersion: () => "0.0.0-test" },
    ipcMain: { on: () => undefined },
  },
  screen: {
    getAllDisplays: () => displays,
    getPrimaryDisplay: () => displays[0],
    getDisplayMatching: (r: Rect) =>
      displays.find((d) => r.x >= d.workArea.x && r.x < d.workArea.x + d.workArea.width) ?? displays[0],
  },
}));

/** A BrowserWindow stand-in: the calls the keeper makes, and the events it listens to. */
class FakeWindow extends EventEmitter {
  bounds: Rect;
  maximized = false;
  fullscreen = false;
  zoom = 0;
  readonly webContents = Object.assign(new EventEmitter(), {
    getZoomLevel: () => this.zoom,
    setZoomLevel: (level: number) => (this.zoom = level),
  });
  constructor(bounds: Rect) {
    super();
    this.bounds = bounds;
  }
  isDestroyed = () => false;
  isMaximized = () => this.maximized;
  isFullScreen = () => this.fullscreen;
  getNormalBounds = () => this.bounds;
  maximize = () => (this.maximized = true);
  setFullScreen = (on: boolean) => (this.fullscreen = on);
}

describe("window placement", () => {
  it("keeps saved bounds that are on a connected display", () => {
    const saved = sanitizeWindowState({
      bounds: { x: 1600, y: 100, width: 1200, height: 800 },
      displayId: 2,
    });
    expect(placeWindow(saved, [laptop, monitor], laptop)).toEqual({ bounds: saved.bounds, displayId: 2 });
  });

  it("re-centres a window whose display is gone onto the primary display, shrunk to fit", () => {
    const saved = sanitizeWindowState({
      bounds: { x: 2000, y: 200, width: 1800, height: 1200 },
      displayId: 2,
    });
    const placed = placeWindow(saved, [laptop], laptop);
    expect(placed.displayId).toBe(1);
    expect(placed.bounds).toEqual({ x: 0, y: 0, width: 1440, height: 870 });
  });

  it("pulls a window that only peeks onto a display back inside it", () => {
    const saved = sanitizeWindowState({ bounds: { x: 1300, y: 700, width: 1000, height: 700 } });
    const placed = placeWindow(saved, [laptop], laptop);
    expect(placed.bounds.x + placed.bounds.width).toBeLessThanOrEqual(1440);
    expect(placed.bounds.y + placed.bounds.height).toBeLessThanOrEqual(870);
  });

  it("turns a corrupt or hand-edited state into a valid one", () => {
    expect(sanitizeWindowState("nonsense")).toMatchObject({
      maximized: false,
      zoomLevel: 0,
      displayId: null,
    });
    const odd = sanitizeWindowState({ bounds: { x: "a", width: 10 }, zoomLevel: 99, maximized: "yes" });
    expect(odd.bounds).toEqual({ x: 0, y: 0, width: 720, height: 800 });
    expect(odd.zoomLevel).toBe(9);
    expect(odd.maximized).toBe(false);
  });
});

describe("window placement after the display layout changed", () => {
  const saved = (bounds: Rect, displayId: number | null) => ({
    ...sanitizeWindowState({}),
    bounds,
    displayId,
  });

  it("shrinks and pulls in a window whose display now has a smaller resolution", () => {
    const smaller: DisplayArea = { id: 2, workArea: { x: 1440, y: 0, width: 1280, height: 720 } };
    const placed = placeWindow(
      saved({ x: 2000, y: 200, width: 1800, height: 1100 }, 2),
      [laptop, smaller],
      laptop,
    );
    expect(placed).toEqual({ bounds: { x: 1440, y: 0, width: 1280, height: 720 }, displayId: 2 });
  });

  it("brings back a window from a monitor left of the primary one (negative x) once it is gone", () => {
    const left: DisplayArea = { id: 3, workArea: { x: -1920, y: 0, width: 1920, height: 1040 } };
    const before = placeWindow(
      saved({ x: -1700, y: 100, width: 1000, height: 700 }, 3),
      [left, laptop],
      laptop,
    );
    expect(before.bounds).toEqual({ x: -1700, y: 100, width: 1000, height: 700 });
    const after = placeWindow(saved(before.bounds, 3), [laptop], laptop);
    expect(after).toEqual({ bounds: { x: 220, y: 85, width: 1000, height: 700 }, displayId: 1 });
  });

  it("never opens off-screen whatever was saved", () => {
    for (const bounds of [
      { x: 100000, y: 100000, width: 900, height: 600 },
      { x: -5000, y: -5000, width: 900, height: 600 },
      { x: 1300, y: 860, width: 900, height: 600 },
    ]) {
      const placed = placeWindow(saved(bounds, null), [laptop, monitor], laptop);
      const area = [laptop, monitor].find((d) => d.id === placed.displayId)!.workArea;
      expect(placed.bounds.x).toBeGreaterThanOrEqual(area.x);
      expect(placed.bounds.y).toBeGreaterThanOrEqual(area.y);
      expect(placed.bounds.x + placed.bounds.width).toBeLessThanOrEqual(area.x + area.width);
      expect(placed.bounds.y + placed.bounds.height).toBeLessThanOrEqual(area.y + area.height);
    }
  });
});

describe("the app route to reopen at", () => {
  it("keeps a path and fragment on the app origin, drops the query", () => {
    expect(routeOf("app://hermes/settings#models", "app://hermes")).toBe("/settings#models");
    expect(routeOf("app://hermes/?token=abc#chat", "app://hermes")).toBe("/#chat");
    expect(routeOf("https://example.org/settings", "app://hermes")).toBeNull();
    expect(routeOf("not a url", "app://hermes")).toBeNull();
  });

  it("reopens at the start for anything that could leave the app or was hand-edited badly", () => {
    for (const bad of [
      "//evil.example/x",
      "https://evil.example/",
      "/a?b=c",
      "/../etc",
      "/a/./b",
      42,
      "/a\nb",
      `/${"x".repeat(600)}`,
    ]) {
      expect(sanitizeRoute(bad)).toBe("/");
    }
    expect(sanitizeRoute("/plugins/tldr#page=summary")).toBe("/plugins/tldr#page=summary");
    expect(sanitizeWindowState({ route: "//evil.example" }).route).toBe("/");
  });
});

describe("window state kept with electron-store", () => {
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => {
    home = tempHome();
    displays = [laptop, monitor];
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
    home.cleanup();
  });

  async function launch() {
    const { createWindowStateKeeper } = await import("../../../electron/window-state.js");
    const keeper = createWindowStateKeeper(home.dir, "app://hermes");
    const window = new FakeWindow(keeper.initialBounds);
    keeper.manage(window as never);
    return { keeper, window };
  }

  it("opens at the default size the first time, then where the person left it", async () => {
    const first = await launch();
    expect(first.keeper.initialBounds).toMatchObject({
      width: 1200,
      height: 800,
      minWidth: 720,
      minHeight: 480,
    });
    first.window.bounds = { x: 1500, y: 50, width: 1000, height: 700 };
    first.window.emit("move");
    first.window.webContents.emit("zoom-changed", {}, "in");
    vi.advanceTimersByTime(1000);
    first.window.emit("close");

    const file = join(home.dir, "window-state.json");
    expect(existsSync(file)).toBe(true);
    const second = await launch();
    expect(second.keeper.initialBounds).toMatchObject({ x: 1500, y: 50, width: 1000, height: 700 });
    second.window.webContents.emit("did-finish-load");
    expect(second.window.zoom).toBe(0.5);
    expect(JSON.parse(readFileSync(file, "utf8")).window.displayId).toBe(2);
  });

  it("restores maximized and fullscreen, keeping the normal bounds for un-maximizing", async () => {
    const first = await launch();
    first.window.bounds = { x: 100, y: 100, width: 900, height: 600 };
    first.window.emit("resize");
    first.window.maximized = true;
    first.window.emit("maximize");
    first.window.emit("close");

    const second = await launch();
    expect(second.window.maximized).toBe(true);
    expect(second.keeper.initialBounds).toMatchObject({ x: 100, y: 100, width: 900, height: 600 });
  });

  it("puts the window on a visible display when its monitor was unplugged", async () => {
    const first = await launch();
    first.window.bounds = { x: 2500, y: 300, width: 1100, height: 700 };
    first.window.emit("close");
    displays = [laptop];
    const second = await launch();
    expect(second.keeper.initialBounds).toMatchObject({ x: 170, y: 85, width: 1100, height: 700 });
  });

  it("reopens at the app route the window was last at, and only at one of the app's own", async () => {
    const first = await launch();
    expect(first.keeper.initialRoute).toBe("/");
    first.window.webContents.emit("did-navigate-in-page", {}, "app://hermes/#settings/models", true);
    first.window.webContents.emit("did-navigate", {}, "https://elsewhere.example/#x");
    first.window.emit("close");
    const second = await launch();
    expect(second.keeper.initialRoute).toBe("/#settings/models");
  });

  it("reopens at the screen the renderer's route named: a chat, a Settings page, a plugin page", async () => {
    // What the renderer writes as the person moves (renderer/src/stores/route-sync.ts).
    const screens: AppRoute[] = [
      { screen: { name: "chat" }, sessionId: "20261205_101500_a1b2c3" },
      { screen: { name: "settings", section: "plugins" }, sessionId: null },
      { screen: { name: "plugin-page", pluginId: "chart-writer", pageId: "charts/all" }, sessionId: null },
    ];
    for (const route of screens) {
      const first = await launch();
      // location.replace("#…") is an in-page navigation: the shell hears did-navigate-in-page.
      first.window.webContents.emit("did-navigate-in-page", {}, `app://hermes/${routeFragment(route)}`, true);
      first.window.emit("close");
      const second = await launch();
      const reopened = new URL(`app://hermes${second.keeper.initialRoute}`);
      expect(parseRouteFragment(reopened.hash)).toEqual(route);
      second.window.emit("close");
    }
  });

  it("opens at the default place when window-state.json is corrupt", async () => {
    writeFileSync(join(home.dir, "window-state.json"), "{ not json");
    const { keeper } = await launch();
    expect(keeper.initialBounds).toMatchObject({ width: 1200, height: 800 });
  });
});
