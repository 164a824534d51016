/** One plugin: who it is, where it came from, its status (and why it failed), its toggle and details. */
import { Puzzle } from "lucide-react";
import { useShallow } from "zustand/react/shallow";
import type { PluginView } from "../../../../electron/host/rpc/methods/plugins.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { Switch } from "../../ui/switch.js";
import { usePlugins } from "../../stores/stores-context.js";
import { selectCommandsOf } from "../../stores/plugins/plugins-store.js";
import { PluginCapabilities, PluginCommands } from "./plugin-details.js";
import { PluginIdleTasks } from "./plugin-idle-tasks.js";
import { PluginRuntime } from "./plugin-runtime.js";
import { PluginStatusBadge } from "./plugin-status-badge.js";

const sourceLabel = { bundled: "Bundled", user: "User" } as const;
const sourceHint = {
  bundled: "Ships with Hermes Desktop",
  user: "From your plugins folder",
} as const;

export function PluginRow({ plugin }: { plugin: PluginView }) {
  const toggle = usePlugins((s) => s.toggles[plugin.id]);
  const setEnabled = usePlugins((s) => s.setEnabled);
  const commands = usePlugins(useShallow(selectCommandsOf(plugin.id)));
  const headingId = `plugin-${plugin.id}-name`;

  return (
    <li className="settings-row card" data-plugin={plugin.id} aria-labelledby={headingId}>
      <div className="settings-row-main">
        <div className="settings-row-icon" aria-hidden="true">
          <Puzzle size={18} />
        </div>
        <div className="settings-row-text">
          <div className="plugin-row-title">
            <h2 id={headingId} className="plugin-name">
              {plugin.name}
            </h2>
            {plugin.version ? <span className="plugin-version">v{plugin.version}</span> : null}
            <PluginStatusBadge status={plugin.status} />
            <span className="badge plugin-source" title={sourceHint[plugin.source]}>
              {sourceLabel[plugin.source]}
            </span>
          </div>
          {plugin.description ? <p className="plugin-description">{plugin.description}</p> : null}
        </div>
        <div className="plugin-row-toggle">
          <Switch
            checked={plugin.enabled}
            onCheckedChange={(enabled) => void setEnabled(plugin.id, enabled)}
            label={`Enable ${plugin.name}`}
            busy={toggle?.kind === "pending"}
          />
        </div>
      </div>
      {plugin.status === "failed" || toggle?.kind === "failed" || plugin.warnings.length > 0 ? (
        <div className="plugin-row-notes">
          {plugin.status === "failed" ? (
            <InlineAlert>
              <strong>
                {plugin.runtime?.state === "stopped"
                  ? "Stopped after crashing 3 times in 5 minutes."
                  : plugin.runtime && plugin.runtime.state !== "running"
                    ? "Not running; it restarts on its own."
                    : "Couldn't load this plugin."}
              </strong>{" "}
              {plugin.error ?? "The host gave no reason."}
            </InlineAlert>
          ) : null}
          {toggle?.kind === "failed" ? <InlineAlert>{toggle.message}</InlineAlert> : null}
          {plugin.warnings.length > 0 ? (
            <ul className="plugin-warnings" aria-label={`Warnings for ${plugin.name}`}>
              {plugin.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <div className="plugin-row-details">
        <PluginCommands name={plugin.name} commands={commands} />
        <PluginCapabilities plugin={plugin} />
        <PluginRuntime plugin={plugin} />
        <PluginIdleTasks plugin={plugin} />
      </div>
    </li>
  );
}
