/**
 * Web mode (`npm run web -- [--port N] [--home DIR]`): the same host and UI, served to a browser on
 * 127.0.0.1 only, behind a launch token.
 */
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { appVersion } from "./app-version.js";
import { LaunchArgsError, parseLaunchArgs } from "./cli-args.js";
import { ConfigUnreadableError } from "./host/config/config-errors.js";
import { resolveDataHome } from "./host/data-home.js";
import { createHost } from "./host/create-host.js";
import { createKeytarVault } from "./host/secrets/vault.js";
import { requireStrongToken, WeakWebTokenError } from "./web/auth.js";
import { startWebServer } from "./web/server.js";

async function main(): Promise<void> {
  let args;
  try {
    args = parseLaunchArgs(process.argv.slice(2));
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
  let host;
  try {
    host = createHost({ home, vault: createKeytarVault(), mode: "web", version: appVersion() });
  } catch (err) {
    if (!(err instanceof ConfigUnreadableError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
  for (const notice of host.settings.notices()) console.warn(`Notice: ${notice.message}`);

  const staticDir = join(dirname(fileURLToPath(import.meta.url)), "..", "renderer");
  let server;
  try {
    server = await startWebServer({
      router: host.router,
      events: host.events,
      token,
      port: args.port,
      staticDir,
      pluginPages: (id) => host.plugins.pageSite(id),
      pageSessions: host.pageSessions,
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    console.error(
      code === "EADDRINUSE"
        ? `Port ${args.port} is already in use: pick another with --port, or --port 0 for a free one.`
        : `Could not start the web UI: ${(err as Error).message}`,
    );
    await host.close();
    process.exit(1);
  }
  console.log(`Hermes Desktop web UI: ${server.url}`);
  // Said once on the console too, so a fresh install without a keychain learns why and what to do.
  void host.keychain.settled().then(() => {
    for (const notice of host.keychain.notices()) console.warn(`Notice: ${notice.message}`);
  });

  const stop = async () => {
    await server.close();
    await host.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

void main();
