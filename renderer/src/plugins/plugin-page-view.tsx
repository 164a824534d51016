/**
 * A plugin's page (docs/contract.md §8) in a sandboxed frame: `sandbox="allow-scripts"` without
 * `allow-same-origin`, so the page has an opaque origin (no access to the app's window, storage,
 * token or cookies) and talks to its backend only through the bridge. It is shown with the open
 * chat's session; with none open, a new chat is made for it. Each frame gets its own page token
 * (`plugins.pageSession`), revoked when the frame goes away.
 */
import { Puzzle } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import { pageFrameSrc } from "../../../electron/host/rpc/plugin-names.js";
import { Button } from "../ui/button.js";
import { EmptyState } from "../ui/empty-state.js";
import { LoadingLine } from "../ui/spinner.js";
import { useHost, useNavigation, usePlugins, useStores } from "../stores/stores-context.js";

/** The token of the frame shown for `key` (plugin, page, session), or why none could be had. */
interface PageAccess {
  key: string;
  token: string | null;
  error: string | null;
}

export function PluginPageView({ pluginId, pageId }: { pluginId: string; pageId: string }) {
  const stores = useStores();
  const plugins = usePlugins((s) => s.plugins);
  const mode = useHost((s) => (s.info.kind === "ready" ? s.info.data.mode : null));
  const sessionId = useStore(stores.chat.sessions, (s) => s.selectedId);
  const goToSettings = useNavigation((s) => s.goToSettings);
  const frame = useRef<HTMLIFrameElement>(null);
  const [access, setAccess] = useState<PageAccess | null>(null);

  const plugin = plugins.kind === "ready" ? plugins.data.find((p) => p.id === pluginId) : undefined;
  const page = plugin?.status === "loaded" ? plugin.pages.find((p) => p.id === pageId) : undefined;
  const pageUrl = page?.url ?? null;
  const accessKey = `${pluginId}\n${pageUrl}\n${sessionId}`;

  // A fresh token for every frame shown; the one before is revoked (its sockets close with it).
  useEffect(() => {
    if (!pageUrl || !sessionId) return;
    let live = true;
    let end: (() => void) | null = null;
    stores.openPageSession(pluginId, sessionId).then(
      (session) => {
        if (!live) return session.end();
        end = session.end;
        setAccess({ key: accessKey, token: session.token, error: null });
      },
      (error: unknown) => {
        if (live)
          setAccess({ key: accessKey, token: null, error: String((error as Error).message ?? error) });
      },
    );
    return () => {
      live = false;
      end?.();
    };
  }, [accessKey, pluginId, pageUrl, sessionId, stores]);

  const current = access?.key === accessKey ? access : null;
  const src =
    page && mode && sessionId && current?.token
      ? pageFrameSrc(page.url, {
          web: mode === "web",
          sessionId,
          parentOrigin: window.location.origin,
          token: current.token,
        })
      : null;
  const token = current?.token ?? null;

  useEffect(() => {
    if (page && sessionId === null) void stores.chat.sessions.getState().createForFirstMessage();
  }, [page, sessionId, stores]);

  useEffect(() => {
    if (!src || !frame.current || !token) return;
    return stores.connectPageFrame(frame.current, { pluginId, sessionId, token });
  }, [src, pluginId, sessionId, token, stores]);

  if (page && current?.error) {
    return (
      <div className="plugin-page">
        <EmptyState
          icon={<Puzzle size={20} />}
          title="The page could not open"
          headingLevel={1}
          action={<Button onClick={() => goToSettings("plugins")}>Open Settings → Plugins</Button>}
        >
          {current.error}
        </EmptyState>
      </div>
    );
  }
  if (plugins.kind !== "ready" || (page && !src)) {
    return (
      <div className="plugin-page plugin-page-waiting" aria-busy="true">
        <LoadingLine>Opening the page…</LoadingLine>
      </div>
    );
  }
  if (!plugin || !page) {
    return (
      <div className="plugin-page">
        <EmptyState
          icon={<Puzzle size={20} />}
          title={plugin ? `${plugin.name} is not running` : "This plugin is gone"}
          headingLevel={1}
          action={<Button onClick={() => goToSettings("plugins")}>Open Settings → Plugins</Button>}
        >
          {plugin
            ? "Its page shows once the plugin is enabled and loaded."
            : "It was removed or renamed; its pages left with it."}
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="plugin-page">
      <header className="plugin-page-header">
        <h1 className="page-title">{page.title}</h1>
        <span className="plugin-page-owner">{plugin.name}</span>
      </header>
      <iframe
        key={src}
        ref={frame}
        className="plugin-page-frame"
        title={`${plugin.name}: ${page.title}`}
        src={src!}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
      />
    </div>
  );
}
