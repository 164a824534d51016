/**
 * Where the desktop window opens: the saved bounds when they still sit on a connected display,
 * else the same size centred on the display it was on — or on the primary one when that display
 * is gone (a laptop undocked from its monitor). Pure, so it is tested without Electron.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DisplayArea {
  id: number;
  /** The display's work area: its bounds less the taskbar/dock. */
  workArea: Rect;
}

/** What the shell keeps about the window between launches (electron-store, `window-state.json`). */
export interface SavedWindowState {
  bounds: Rect;
  maximized: boolean;
  fullscreen: boolean;
  displayId: number | null;
  zoomLevel: number;
  /** Where in the app the window was: the app URL's path and fragment, never its query. */
  route: string;
}

export const DEFAULT_WINDOW_SIZE = { width: 1200, height: 800 } as const;
export const MIN_WINDOW_SIZE = { width: 720, height: 480 } as const;
/** Electron's zoom levels: 0 is 100 %, each step is 20 %; beyond ±9 text is unusable. */
const ZOOM_RANGE = { min: -9, max: 9 } as const;
/** How much of the title bar must be visible for the window to count as reachable. */
const MIN_VISIBLE = { width: 100, height: 40 } as const;

export const defaultWindowState: SavedWindowState = {
  bounds: { x: 0, y: 0, ...DEFAULT_WINDOW_SIZE },
  maximized: false,
  fullscreen: false,
  displayId: null,
  zoomLevel: 0,
  route: "/",
};

const MAX_ROUTE_LENGTH = 512;

/**
 * A route to reopen at: a path on the app origin with an optional fragment, nothing that could
 * leave it (`//host`, a scheme, `..`, control characters) and no query (tokens live there).
 */
export function sanitizeRoute(raw: unknown): string {
  if (typeof raw !== "string" || raw.length > MAX_ROUTE_LENGTH) return "/";
  if (!/^\/(?!\/)[\w\-./~%!$&'()*+,;=:@#]*$/.test(raw) || raw.includes("?")) return "/";
  const path = raw.split("#")[0]!;
  if (path.split("/").some((segment) => segment === ".." || segment === ".")) return "/";
  return raw;
}

/** The route of an app URL the window navigated to, or null for any other URL. */
export function routeOf(url: string, appOrigin: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (`${parsed.protocol}//${parsed.host}` !== appOrigin) return null;
  return sanitizeRoute(parsed.pathname + parsed.hash);
}

/** The bounds to open with, never off-screen and never larger than the display it lands on. */
export function placeWindow(
  saved: SavedWindowState,
  displays: readonly DisplayArea[],
  primary: DisplayArea,
): { bounds: Rect; displayId: number } {
  const visibleOn = displays.find((d) => overlap(saved.bounds, d.workArea));
  if (visibleOn) return { bounds: fitInside(saved.bounds, visibleOn.workArea), displayId: visibleOn.id };
  const target = displays.find((d) => d.id === saved.displayId) ?? primary;
  return { bounds: centreIn(saved.bounds, target.workArea), displayId: target.id };
}

/** Whatever was on disk, made into a valid state: a hand-edited or corrupt file loses nothing else. */
export function sanitizeWindowState(raw: unknown): SavedWindowState {
  const value = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const b = (typeof value.bounds === "object" && value.bounds !== null ? value.bounds : {}) as Record<
    string,
    unknown
  >;
  const int = (v: unknown, fallback: number) => (Number.isSafeInteger(v) ? (v as number) : fallback);
  return {
    bounds: {
      x: int(b.x, 0),
      y: int(b.y, 0),
      width: Math.max(MIN_WINDOW_SIZE.width, int(b.width, DEFAULT_WINDOW_SIZE.width)),
      height: Math.max(MIN_WINDOW_SIZE.height, int(b.height, DEFAULT_WINDOW_SIZE.height)),
    },
    maximized: value.maximized === true,
    fullscreen: value.fullscreen === true,
    displayId: Number.isSafeInteger(value.displayId) ? (value.displayId as number) : null,
    zoomLevel: typeof value.zoomLevel === "number" ? clampZoom(value.zoomLevel) : 0,
    route: sanitizeRoute(value.route ?? "/"),
  };
}

export function clampZoom(level: number): number {
  return Number.isFinite(level) ? Math.min(ZOOM_RANGE.max, Math.max(ZOOM_RANGE.min, level)) : 0;
}

function overlap(a: Rect, area: Rect): boolean {
  const width = Math.min(a.x + a.width, area.x + area.width) - Math.max(a.x, area.x);
  const height = Math.min(a.y + a.height, area.y + area.height) - Math.max(a.y, area.y);
  return width >= MIN_VISIBLE.width && height >= MIN_VISIBLE.height;
}

function fitInside(rect: Rect, area: Rect): Rect {
  const width = Math.min(rect.width, area.width);
  const height = Math.min(rect.height, area.height);
  return {
    x: Math.min(Math.max(rect.x, area.x), area.x + area.width - width),
    y: Math.min(Math.max(rect.y, area.y), area.y + area.height - height),
    width,
    height,
  };
}

function centreIn(rect: Rect, area: Rect): Rect {
  const width = Math.min(rect.width, area.width);
  const height = Math.min(rect.height, area.height);
  return {
    x: area.x + Math.round((area.width - width) / 2),
    y: area.y + Math.round((area.height - height) / 2),
    width,
    height,
  };
}
