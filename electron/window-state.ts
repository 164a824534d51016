/**
 * The desktop window's own state — bounds, maximized/fullscreen, its display, zoom, the app route
 * it was at — kept with electron-store (`window-state.json` in the data home). Only the Electron
 * shell has a window, so this lives beside main.ts; the host's settings stay in config.yaml.
 */
import { screen, type BrowserWindow } from "electron";
import Store from "electron-store";
import {
  defaultWindowState,
  MIN_WINDOW_SIZE,
  clampZoom,
  placeWindow,
  routeOf,
  sanitizeWindowState,
  type DisplayArea,
  type Rect,
  type SavedWindowState,
} from "./window-placement.js";

/** Half a zoom level per wheel notch, as Chromium's own Ctrl+wheel zoom does. */
const ZOOM_STEP = 0.5;
/** Moves and resizes arrive in bursts; one write per pause is enough. */
const SAVE_DELAY_MS = 400;

export interface WindowStateKeeper {
  /** Options for `new BrowserWindow`: where and how large to open. */
  readonly initialBounds: Rect & { minWidth: number; minHeight: number };
  /** The app route the window was last at ("/" the first time): load `appOrigin + initialRoute`. */
  readonly initialRoute: string;
  /** Restores maximized/fullscreen and zoom on the new window and keeps the state current. */
  manage(window: BrowserWindow): void;
}

export function createWindowStateKeeper(home: string, appOrigin: string): WindowStateKeeper {
  const store = new Store<{ window: SavedWindowState }>({
    name: "window-state",
    cwd: home,
    defaults: { window: defaultWindowState },
    // A corrupt file is a lost window position, never a window that fails to open.
    clearInvalidConfig: true,
  });
  const saved = sanitizeWindowState(store.get("window"));
  const toArea = (d: Electron.Display): DisplayArea => ({ id: d.id, workArea: d.workArea });
  const placed = placeWindow(saved, screen.getAllDisplays().map(toArea), toArea(screen.getPrimaryDisplay()));

  return {
    initialBounds: { ...placed.bounds, minWidth: MIN_WINDOW_SIZE.width, minHeight: MIN_WINDOW_SIZE.height },
    initialRoute: saved.route,
    manage(window) {
      let state: SavedWindowState = { ...saved, bounds: placed.bounds, displayId: placed.displayId };
      let timer: NodeJS.Timeout | undefined;
      const write = () => {
        clearTimeout(timer);
        store.set("window", state);
      };
      const capture = () => {
        if (window.isDestroyed()) return;
        const maximized = window.isMaximized();
        const fullscreen = window.isFullScreen();
        // The normal bounds, so un-maximizing after a restart returns to the size the person chose.
        const bounds = maximized || fullscreen ? state.bounds : window.getNormalBounds();
        state = {
          bounds,
          maximized,
          fullscreen,
          displayId: screen.getDisplayMatching(bounds).id,
          zoomLevel: window.webContents.getZoomLevel(),
          route: state.route,
        };
      };
      const saveSoon = () => {
        capture();
        clearTimeout(timer);
        timer = setTimeout(write, SAVE_DELAY_MS);
      };

      if (saved.maximized) window.maximize();
      if (saved.fullscreen) window.setFullScreen(true);
      window.webContents.on("did-finish-load", () => window.webContents.setZoomLevel(state.zoomLevel));
      // Ctrl+wheel asks for a zoom step; Electron leaves applying it to the app.
      window.webContents.on("zoom-changed", (_event, direction) => {
        const level = window.webContents.getZoomLevel() + (direction === "in" ? ZOOM_STEP : -ZOOM_STEP);
        window.webContents.setZoomLevel(clampZoom(level));
        saveSoon();
      });
      // The page's own navigations (a path or fragment change) are where to reopen next time.
      const remember = (_event: unknown, url: string) => {
        const route = routeOf(url, appOrigin);
        if (route === null || route === state.route) return;
        state = { ...state, route };
        saveSoon();
      };
      window.webContents.on("did-navigate", remember);
      window.webContents.on("did-navigate-in-page", remember);
      for (const event of [
        "resize",
        "move",
        "maximize",
        "unmaximize",
        "enter-full-screen",
        "leave-full-screen",
      ] as const)
        window.on(event as "resize", saveSoon);
      window.on("close", () => {
        capture();
        write();
      });
    },
  };
}
