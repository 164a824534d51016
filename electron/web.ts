/**
 * Web mode (`npm run web -- [--port N] [--home DIR]`): the same host and UI, served to a browser on
 * 127.0.0.1 only, behind a launch token.
 *
 * The page doesn't wait for the host: the server listens (and the URL is printed) first and serves
 * the shell, which paints without a single call. The host (most of the app's code, and its
 * services) starts once the page's first files are served (while the browser runs them), when the
 * page first connects or makes a call, or after a short grace period when nothing does; calls that
 * arrive before it is up are answered as soon as it is.
 */
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { appVersion } from "./app-version.js";
import { LaunchArgsError, parseLaunchArgs } from "./cli-args.js";
import { ConfigUnreadableError } from "./host/config/config-errors.js";
import { findUnreadableConfig } from "./host/config/config-file.js";
import { resolveDataHome } from "./host/data-home.js";
import { sessionStoreFile } from "./host/sessions/store/store-file.js";
import type { Host } from "./host/create-host.js";
import type { EventListener } from "./host/events.js";
import { PageSessions } from "./host/plugins/pages/page-sessions.js";
import { requireStrongToken, WeakWebTokenError } from "./web/auth.js";
import { startWebServer } from "./web/server.js";
import { startGrace, type StartGrace } from "./web/start-grace.js";

/**
 * How long the host waits for a connection before starting on its own: 1.5 s when no page loads,
 * 40 ms after a loading page's last file (its first load comes as one burst of requests).
 */
const hostGrace = { graceMs: 1500, quietMs: 40 };

async function startHost(home: string, pageSessions: PageSessions): Promise<Host> {
  // The session store's damage check (SQLite reads every page) runs in a worker thread while the
  // host's code loads here, instead of after it on this thread.
  const storeDamage = import("./host/sessions/recovery/store-damage.js").then((m) =>
    m.findStoreDamageOffThread(sessionStoreFile(home), m.DEFAULT_INTEGRITY_CHECK_MAX_BYTES),
  );
  const [{ createHost }, { createKeytarVault }] = await Promise.all([
    import("./host/create-host.js"),
    import("./host/secrets/vault.js"),
  ]);
  return createHost({
    home,
    vault: createKeytarVault(),
    mode: "web",
    version: appVersion(),
    pageSessions,
    storeDamage: await storeDamage,
    pluginStart: "after-window",
  });
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseLaunchArgs(process.argv.slice(2), { others: "reject" });
  } catch (err) {
    if (err instanceof LaunchArgsError) {
      console.error(`${err.message}. Usage: npm run web -- [--port N] [--home DIR]`);
      process.exit(2);
    }
    throw err;
  }
  const token = process.env.HERMES_DESKTOP_WEB_TOKEN || randomBytes(24).toString("base64url");
  try {
    requireStrongToken(token);
  } catch (err) {
    if (!(err instanceof WeakWebTokenError)) throw err;
    console.error(err.message);
    process.exit(2);
  }
  const home = resolve(resolveDataHome(args.home));
  // An unreadable config.yaml stops the launch before anything is announced.
  const unreadable = findUnreadableConfig(home);
  if (unreadable) {
    console.error(unreadable.message);
    process.exit(1);
  }

  // Page frames' tokens live outside the host so the server can check them before the host is up.
  const pageSessions = new PageSessions();
  let host: Host | null = null;
  let hostStarting: Promise<Host> | null = null;
  let reportStarted: (up: Host) => void = () => undefined;
  let reportFailed: (error: unknown) => void = () => undefined;
  const hostReady = new Promise<Host>((resolve, reject) => {
    reportStarted = resolve;
    reportFailed = reject;
  });
  const bootHost = (): Promise<Host> => {
    if (!hostStarting) {
      grace?.cancel();
      hostStarting = startHost(home, pageSessions).then((started) => (host = started));
      hostStarting.then(reportStarted, reportFailed);
    }
    return hostReady;
  };
  const closeHost = async (): Promise<void> => {
    const starting = hostStarting as Promise<Host> | null;
    await starting?.then((up) => up.close()).catch(() => undefined);
  };
  let grace: StartGrace | null = null;
  // Until the host is up, calls wait for it and event subscriptions are attached once it is.
  const whenUp = (): Promise<Host> => bootHost().catch(() => new Promise<never>(() => undefined));
  const staticDir = join(dirname(fileURLToPath(import.meta.url)), "..", "renderer");
  let server;
  try {
    server = await startWebServer({
      router: { handle: async (frame, ctx) => (await whenUp()).router.handle(frame, ctx) },
      events: {
        subscribe(listener: EventListener, connectionId?: string) {
          let unsubscribe: (() => void) | null = null;
          let gone = false;
          void whenUp().then((up) => {
            if (!gone) unsubscribe = up.events.subscribe(listener, connectionId);
          });
          return () => {
            gone = true;
            unsubscribe?.();
          };
        },
      },
      token,
      port: args.port,
      staticDir,
      pluginPages: (id) => host?.plugins.pageSite(id) ?? null,
      pageSessions,
      onPageFile: () => grace?.postpone(),
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    console.error(
      code === "EADDRINUSE"
        ? `Port ${args.port} is already in use: pick another with --port, or --port 0 for a free one.`
        : `Could not start the web UI: ${(err as Error).message}`,
    );
    await closeHost();
    process.exit(1);
  }
  console.log(`Hermes Desktop web UI: ${server.url}`);
  // The host starts before the page connects: once the page has its first files (it connects
  // after running them and painting), or, with no page at all, once the grace is over (idle
  // tasks, interrupted replies).
  grace = startGrace(() => void bootHost().catch(() => undefined), hostGrace);
  const stop = async () => {
    await server.close();
    await closeHost();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());

  let up: Host;
  try {
    up = await hostReady;
  } catch (err) {
    // The file turned unreadable after the look above, or the host failed to start.
    console.error(err instanceof ConfigUnreadableError ? err.message : `Could not start: ${String(err)}`);
    await server.close();
    process.exit(1);
  }
  for (const notice of up.settings.notices()) console.warn(`Notice: ${notice.message}`);
  // Said once on the console too, so a fresh install without a keychain learns why and what to do.
  void up.keychain.settled().then(() => {
    for (const notice of up.keychain.notices()) console.warn(`Notice: ${notice.message}`);
  });
}

void main();
