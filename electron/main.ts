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
import { pluginPageSchemePrivileges, servePluginPages } from "./plugin-protocol.js";
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

protocol.registerSchemesAsPrivileged([
  { scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  pluginPageSchemePrivileges,
]);
app.enableSandbox();

if (!app.requestSingleInstanceLock()) app.quit();

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
  void mainWindow.loadURL(`${appOrigin}/`);
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
const args = readLaunchArgs();

void app.whenReady().then(() => {
  const home = args.home ?? process.env.HERMES_DESKTOP_HOME ?? app.getPath("userData");
  try {
    host = createHost({
      home,
      vault: createKeytarVault(),
      mode: "desktop",
      version: appVersion(),
      // shell.openPath answers "" on success; only the plugins folder is ever passed here.
      openFolder: async (path) => (await shell.openPath(path)) === "",
      // The plugin host runs on Electron's own Node (ELECTRON_RUN_AS_NODE), under the permission model.
      pluginHostLaunch: { execPath: process.execPath, env: { ELECTRON_RUN_AS_NODE: "1" } },
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
  host.events.subscribe((frame) => mainWindow?.webContents.send(ipcChannels.event, frame));

  const keeper = createWindowStateKeeper(home);
  createWindow(keeper);
  app.on("activate", () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow(keeper);
  });
});

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

app.on("second-instance", () => {
  if (mainWindow?.isMinimized()) mainWindow.restore();
  mainWindow?.focus();
});

app.on("window-all-closed", () => {
  if (process.platform !== "darwin") app.quit();
});

app.on("will-quit", () => {
  void host?.close();
  // A keychain call stuck on a locked prompt would hold the process open; don't let it.
  setTimeout(() => app.exit(0), 3000).unref();
});
