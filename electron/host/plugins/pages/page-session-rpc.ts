/** The `plugins.pageSession*` RPC handlers (docs/contract.md §8, §11): page tokens for the app's frames. */
import { RpcError } from "../../rpc/errors.js";
import type { Handler } from "../../rpc/router.js";
import type { PageSessions } from "./page-sessions.js";

export interface PagePlugins {
  ready(): Promise<void>;
  /** Starts the plugins now, past the host's start gate: a page is being shown. */
  startNow(): void;
  isLoaded(pluginId: string): boolean;
  /** Whether the plugin declares pages (null when it has none or is not enabled). */
  pageSite(pluginId: string): unknown;
}

export function pageSessionHandlers(
  sessions: PageSessions,
  plugins: PagePlugins,
): {
  "plugins.pageSession": Handler<"plugins.pageSession">;
  "plugins.pageSessionEnd": Handler<"plugins.pageSessionEnd">;
} {
  return {
    "plugins.pageSession": async ({ id, sessionId }, ctx) => {
      plugins.startNow();
      await plugins.ready();
      if (!plugins.isLoaded(id) || !plugins.pageSite(id)) {
        throw new RpcError(
          "plugin_not_found",
          `No enabled plugin "${id}" has pages; enable it in Settings → Plugins first.`,
        );
      }
      return sessions.mint(ctx.connectionId, id, sessionId);
    },
    "plugins.pageSessionEnd": async ({ token }, ctx) => ({ ended: sessions.end(token, ctx.connectionId) }),
  };
}
