// The window's own state through electron-store, against a stand-in for the Electron APIs it
// touches (app, ipcMain, screen) and a recording window; the file on disk is real.
import { EventEmitter } from "node:events";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  placeWindow,
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
    const keeper = createWindowStateKeeper(home.dir);
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

  it("opens at the default place when window-state.json is corrupt", async () => {
    writeFileSync(join(home.dir, "window-state.json"), "{ not json");
    const { keeper } = await launch();
    expect(keeper.initialBounds).toMatchObject({ width: 1200, height: 800 });
  });
});
