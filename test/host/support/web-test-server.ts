/** A real host behind a real web server on a free loopback port, serving a one-file static folder. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startWebServer, type WebServer, type WebServerOptions } from "../../../electron/web/server.js";
import { tempHome } from "./temp-home.js";
import { startTestHost, type TestHost } from "./test-host.js";

export interface WebTestServer {
  t: TestHost;
  server: WebServer;
  token: string;
  /** `http://127.0.0.1:<port>` */
  base: string;
  dispose(): Promise<void>;
}

export async function startWebTestServer(
  token: string,
  options: Partial<Pick<WebServerOptions, "log">> = {},
): Promise<WebTestServer> {
  const t = await startTestHost();
  const staticDir = tempHome("hermes-static-");
  writeFileSync(join(staticDir.dir, "index.html"), "<!doctype html><title>Hermes</title>");
  const server = await startWebServer({
    router: t.host.router,
    events: t.host.events,
    token,
    port: 0,
    staticDir: staticDir.dir,
    ...options,
  });
  return {
    t,
    server,
    token,
    base: `http://127.0.0.1:${server.port}`,
    async dispose() {
      await server.close();
      await t.dispose();
      staticDir.cleanup();
    },
  };
}
