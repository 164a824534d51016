/**
 * Settings → Plugins: bundled and user plugins with their status, a toggle that takes effect at
 * once, Rescan, and the way to the plugins folder. Loading, empty and error states.
 */
import { FolderOpen, Puzzle, RefreshCw } from "lucide-react";
import { Button } from "../../ui/button.js";
import { EmptyState } from "../../ui/empty-state.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { SettingsList } from "../settings-list.js";
import { SettingsPage } from "../settings-page.js";
import { useHost, usePlugins } from "../../stores/stores-context.js";
import { PluginRow } from "./plugin-row.js";
import { PluginsFolderNote } from "./plugins-folder-note.js";
import { pluginsFolderPath } from "./plugins-folder.js";

export function PluginsPage() {
  const plugins = usePlugins((s) => s.plugins);
  const reload = usePlugins((s) => s.load);
  const rescan = usePlugins((s) => s.rescan);
  const rescanPlugins = usePlugins((s) => s.rescanPlugins);
  const folder = usePlugins((s) => s.folder);
  const openFolder = usePlugins((s) => s.openFolder);
  const info = useHost((s) => s.info);

  const mode = info.kind === "ready" ? info.data.mode : null;
  const folderPath =
    folder.kind === "opened" || folder.kind === "shown"
      ? folder.path
      : info.kind === "ready"
        ? pluginsFolderPath(info.data.home)
        : null;
  const rescanning = rescan.kind === "running";

  const actions = (
    <div className="plugins-actions">
      <Button
        icon={<RefreshCw size={16} aria-hidden="true" />}
        onClick={() => void rescanPlugins()}
        disabled={rescanning}
        busy={rescanning}
      >
        {rescanning ? "Rescanning…" : "Rescan"}
      </Button>
      {/* Only the desktop host can open a file manager; a browser gets the path to copy below. */}
      {mode === "desktop" ? (
        <Button
          icon={<FolderOpen size={16} aria-hidden="true" />}
          onClick={() => void openFolder()}
          disabled={folder.kind === "opening"}
          busy={folder.kind === "opening"}
        >
          Open plugins folder
        </Button>
      ) : null}
    </div>
  );

  return (
    <SettingsPage
      headingId="plugins-heading"
      title="Plugins"
      description="Add slash commands, hooks and tools to chat. Turning one on or off takes effect at once."
      action={actions}
    >
      {mode === "web" && folderPath ? <PluginsFolderNote path={folderPath} reason="web" /> : null}
      {mode === "desktop" && folder.kind === "shown" ? (
        <PluginsFolderNote path={folder.path} reason="not_opened" />
      ) : null}
      {folder.kind === "failed" ? <InlineAlert>{folder.message}</InlineAlert> : null}
      {rescan.kind === "failed" ? <InlineAlert>{rescan.message}</InlineAlert> : null}

      <SettingsList
        value={plugins}
        loadingText="Loading plugins…"
        failureText="Couldn't load your plugins"
        onRetry={reload}
        label="Installed plugins"
        empty={
          <EmptyState icon={<Puzzle size={20} />} title="No plugins yet">
            No plugins found. Put a plugin folder in{" "}
            {folderPath ? <code>{folderPath}</code> : "your plugins folder"} and press Rescan.
          </EmptyState>
        }
        renderRow={(plugin) => <PluginRow plugin={plugin} />}
      />
    </SettingsPage>
  );
}
