/**
 * One Hermes Desktop per user: the first instance holds Electron's single-instance lock and runs
 * the app; a second one hands its launch to the first (which brings its window forward) and quits
 * before doing any work — no host, no window, no second writer on the session store. Takes
 * Electron's `app` from main.ts, so only the shell imports electron.
 */

/** The part of Electron's `app` this needs. */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: "second-instance", listener: () => void): unknown;
}

/** The part of a BrowserWindow a second launch touches. */
export interface ForwardableWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  isVisible(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

/** The window a second launch brings forward: restored if minimised, shown if hidden, focused. */
export function bringForward(window: ForwardableWindow | undefined): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  if (!window.isVisible()) window.show();
  window.focus();
}

/**
 * Runs `start` only in the instance holding the lock; any other instance quits. Returns whether
 * this instance runs.
 */
export function runAsSingleInstance(
  app: SingleInstanceApp,
  start: () => void,
  mainWindow: () => ForwardableWindow | undefined,
): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on("second-instance", () => bringForward(mainWindow()));
  start();
  return true;
}
