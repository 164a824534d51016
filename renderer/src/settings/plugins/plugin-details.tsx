/** The lower half of a plugin's row: its slash commands and its capabilities with their state. */
import type { PluginCommandView, PluginView } from "../../../../electron/host/rpc/methods/plugins.js";
import { describeCapability } from "./capability-text.js";

export function PluginCommands({ name, commands }: { name: string; commands: readonly PluginCommandView[] }) {
  if (commands.length === 0) return null;
  return (
    <div className="plugin-section">
      <h3 className="plugin-section-title">Commands</h3>
      <ul className="plugin-commands" aria-label={`Commands of ${name}`}>
        {commands.map((command) => (
          <li key={command.name} className="plugin-command">
            <code className="plugin-command-usage">
              /{command.name}
              {command.argsHint ? <span className="plugin-command-args"> {command.argsHint}</span> : null}
            </code>
            {command.description ? (
              <span className="plugin-command-description">{command.description}</span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

type CapabilityState = "granted" | "pending" | "off";

const stateLabel: Readonly<Record<CapabilityState, string>> = {
  granted: "Granted",
  pending: "Not yet asked",
  off: "Not granted",
};

export function PluginCapabilities({ plugin }: { plugin: PluginView }) {
  const none = plugin.capabilities.length === 0;
  return (
    <div className={none ? "plugin-section plugin-section-inline" : "plugin-section"}>
      <h3 className="plugin-section-title">Capabilities</h3>
      {none ? (
        <p className="plugin-section-empty">None requested</p>
      ) : (
        <ul className="plugin-capabilities" aria-label={`Capabilities of ${plugin.name}`}>
          {plugin.capabilities.map((capability) => {
            const text = describeCapability(capability.id);
            const state: CapabilityState = capability.granted
              ? "granted"
              : plugin.pendingCapabilities.includes(capability.id)
                ? "pending"
                : "off";
            return (
              <li key={capability.id} className="plugin-capability" data-capability={capability.id}>
                <div className="plugin-capability-text">
                  <span className="plugin-capability-label">{text.label}</span>
                  <span className="plugin-capability-description">{text.description}</span>
                </div>
                <span className={`capability-state capability-state-${state}`}>{stateLabel[state]}</span>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
