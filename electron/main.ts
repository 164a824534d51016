/**
 * Electron entry: one window on the app:// origin, the host behind IPC, and Electron's security
 * checklist applied. Thin on purpose: everything testable lives in the host.
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  net,
  protocol,
  session,
  shell,
  type IpcMainInvokeEvent,
} from "electron";
import { existsSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { appVersion } from "./app-version.js";
import { LaunchArgsError, parseLaunchArgs, type LaunchArgs } from "./cli-args.js";
import { ConfigUnreadableError } from "./host/config/config-errors.js";
import { createHost, type Host } from "./host/create-host.js";
import { ipcChannels } from "./host/rpc/contract.js";
import { RpcError } from "./host/rpc/errors.js";
import { errorResponse } from "./host/rpc/frames.js";
import { createKeytarVault } from "./host/secrets/vault.js";
import { desktopPluginHostLaunch } from "./plugin-host-launch.js";
import { pluginPageSchemePrivileges, servePluginPages } from "./plugin-protocol.js";
import { runAsSingleInstance } from "./single-instance.js";
import { feedFromEnv, startUpdates, UPDATE_FEED_ENV, type UpdateService } from "./updates.js";
import { guardPermissions, openOutside } from "./window-guards.js";
import { createWindowStateKeeper, type WindowStateKeeper } from "./window-state.js";
import {
  appContentSecurityPolicy,
  appOrigin,
  appScheme,
  appWindowPreferences,
  isAllowedNavigation,
  isTrustedSender,
} from "./window-security.js";

const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, "..", "renderer");
let host: Host | undefined;
let mainWindow: BrowserWindow | undefined;
let updates: UpdateService | undefined;

function serveRenderer(): void {
  protocol.handle(appScheme, async (request) => {
    const path = new URL(request.url).pathname;
    const file = normalize(join(rendererDir, path === "/" ? "index.html" : decodeURIComponent(path)));
    if (!file.startsWith(rendererDir + sep)) return new Response("Not found", { status: 404 });
    const response = await net.fetch(pathToFileURL(file).toString()).catch(() => null);
    const body = response?.ok
      ? response
      : await net.fetch(pathToFileURL(join(rendererDir, "index.html")).toString());
    const headers = new Headers(body.headers);
    headers.set("Content-Security-Policy", appContentSecurityPolicy);
    headers.set("X-Content-Type-Options", "nosniff");
    return new Response(body.body, { status: 200, headers });
  });
}

function trusted(event: IpcMainInvokeEvent): boolean {
  return isTrustedSender({
    frameUrl: event.senderFrame?.url,
    isMainFrame: event.senderFrame === event.sender.mainFrame,
    isAppWindow: mainWindow !== undefined && event.sender === mainWindow.webContents,
  });
}

function createWindow(keeper: WindowStateKeeper): void {
  mainWindow = new BrowserWindow({
    ...keeper.initialBounds,
    title: "Hermes Desktop",
    show: false,
    webPreferences: appWindowPreferences(join(here, "preload.cjs")),
  });
  keeper.manage(mainWindow);
  mainWindow.once("ready-to-show", () => mainWindow?.show());
  mainWindow.on("closed", () => (mainWindow = undefined));
  void mainWindow.loadURL(`${appOrigin}${keeper.initialRoute}`);
}

/** Our flags; Electron's and Chromium's switches pass through. A bad value of ours stops the launch. */
function readLaunchArgs(): LaunchArgs {
  try {
    return parseLaunchArgs(process.argv.slice(1), { others: "pass" });
  } catch (err) {
    if (!(err instanceof LaunchArgsError)) throw err;
    console.error(`${err.message}. Usage: npm start -- [--port N] [--home DIR]`);
    process.exit(2);
  }
}
/** Everything the app does, run only by the instance holding the single-instance lock. */
function start(): void {
  const args = readLaunchArgs();
  protocol.registerSchemesAsPrivileged([
    { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
    pluginPageSchemePrivileges,
  ]);
  app.enableSandbox();
  void app.whenReady().then(() => whenReady(args));
}

function whenReady(args: LaunchArgs): void {
  const home = args.home ?? process.env.HERMES_DESKTOP_HOME ?? app.getPath("userData");
  try {
    host = createHost({
      home,
      vault: createKeytarVault(),
      mode: "desktop",
      version: appVersion(),
      // shell.openPath answers "" on success; only the plugins folder is ever passed here.
      openFolder: async (path) => (await shell.openPath(path)) === "",
      // MCP OAuth sign-in: the authorization page opens in the person's browser, never in the app.
      openExternal: (url) => shell.openExternal(url),
      // Under the permission model, in a utility process when packaged (plugin-host-launch.ts).
      pluginHostLaunch: desktopPluginHostLaunch({ packaged: app.isPackaged, execPath: process.execPath }),
      shellNotices: () => updates?.notices() ?? [],
      // Plugins start once the window has its first data, never competing with its start-up.
      pluginStart: "after-window",
    });
  } catch (err) {
    if (!(err instanceof ConfigUnreadableError)) throw err;
    // The settings file is a folder or not readable: say which, why and what to do, then stop.
    dialog.showErrorBox("Hermes Desktop cannot start", err.message);
    app.exit(1);
    return;
  }

  guardPermissions(session.defaultSession);
  serveRenderer();
  servePluginPages(
    (id) => host?.plugins.pageSite(id) ?? null,
    (token, id) => host?.pageSessions.servesWith(token, id) ?? false,
    appOrigin,
  );

  ipcMain.handle(ipcChannels.request, async (event, frame: { method?: unknown; params?: unknown }) => {
    if (!trusted(event) || !host) {
      return errorResponse(null, new RpcError("unauthorized", "Untrusted sender"));
    }
    return host.router.handle(
      { jsonrpc: "2.0", id: 1, method: frame?.method, params: frame?.params },
      { connectionId: `window:${event.sender.id}` },
    );
  });
  // Each window hears the topics it subscribed to (docs/contract.md §11 `events.subscribe`).
  host.events.subscribe((frame) => {
    const contents = mainWindow?.webContents;
    if (contents && host?.events.wants(`window:${contents.id}`, frame))
      contents.send(ipcChannels.event, frame);
  });

  // Only an installed app updates itself: `npm start` has no app-update.yml, web mode no shell.
  const running = host;
  if (app.isPackaged) {
    checkForUpdates(running).catch((err) =>
      running.log.write("ERROR", "updates_unavailable", { error: String(err) }),
    );
  }

  const keeper = createWindowStateKeeper(home, appOrigin);
  createWindow(keeper);
  app.on("activate", () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow(keeper);
  });
}

async function checkForUpdates(running: Host): Promise<void> {
  // electron-updater is CommonJS: its named exports come through the default one.
  const { autoUpdater } = (await import("electron-updater")).default;
  updates = startUpdates({
    updater: autoUpdater,
    feed: feedFromEnv(process.env[UPDATE_FEED_ENV]),
    buildFeedPresent: existsSync(join(process.resourcesPath, "app-update.yml")),
    onNoticesChanged: () => running.events.emit("host.changed", null, {}),
    log: (event, fields) => running.log.write("INFO", event, fields),
  });
  if (updates.notices().length) running.events.emit("host.changed", null, {});
}

// Registered in every instance but fire only in the one that runs (a second one quits at once).
app.on("web-contents-created", (_event, contents) => {
  // Links never load in the app's window: web and mail links go to the system, the rest nowhere.
  const openLink = (url: string) => openOutside(url, (target) => shell.openExternal(target));
  contents.setWindowOpenHandler(({ url }) => {
    openLink(url);
    return { action: "deny" };
  });
  // A closed window's plugin page frames are gone: their page tokens die with it.
  const connectionId = `window:${contents.id}`;
  contents.once("destroyed", () => host?.pageSessions.endConnection(connectionId));
  contents.on("will-navigate", (event, url) => {
    if (isAllowedNavigation(url)) return;
    event.preventDefault();
    openLink(url);
  });
  contents.on("will-attach-webview", (event) => event.preventDefault());
});

app.on("window-all-closed", () => {
  if (process.platform !== "darwin") app.quit();
});

app.on("will-quit", () => {
  updates?.stop();
  void host?.close();
  // A keychain call stuck on a locked prompt would hold the process open; don't let it.
  setTimeout(() => app.exit(0), 3000).unref();
});

runAsSingleInstance(app, start, () => mainWindow);
