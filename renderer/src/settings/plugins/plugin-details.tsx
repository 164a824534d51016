/**
 * The lower half of a plugin's row: its slash commands and its capabilities with their state
 * (granted, not granted, pending after an update), a Revoke button on a grant (the next call
 * obeys), and the consent screen again for the others (Review when pending, Grant… when declined).
 */
import type { PluginCommandView, PluginView } from "../../../../electron/host/rpc/methods/plugins.js";
import { revokeKey } from "../../stores/plugins/plugin-consent-slice.js";
import { usePlugins } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { refocusIfLost } from "../../app/focus-rescue.js";
import { InlineAlert } from "../../ui/inline-alert.js";
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

const failure = (state: { kind: string; message?: string } | undefined) =>
  state?.kind === "failed" ? <InlineAlert>{state.message}</InlineAlert> : null;

const stateLabel: Readonly<Record<CapabilityState, string>> = {
  granted: "Granted",
  pending: "Pending",
  off: "Not granted",
};

export function PluginCapabilities({ plugin }: { plugin: PluginView }) {
  const revokes = usePlugins((s) => s.revokes);
  const revoke = usePlugins((s) => s.revokeCapability);
  const review = usePlugins((s) => s.requestConsent);
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
                {state === "granted" ? (
                  <Button
                    size="sm"
                    aria-label={`Revoke ${text.label} from ${plugin.name}`}
                    onClick={(event) => {
                      // Revoke goes away once revoked: the capability's Grant… takes its focus.
                      const row = event.currentTarget.closest("li");
                      void revoke(plugin.id, capability.id).then(() =>
                        refocusIfLost(() => row?.querySelector("button")),
                      );
                    }}
                    disabled={revokes[revokeKey(plugin.id, capability.id)]?.kind === "pending"}
                  >
                    Revoke
                  </Button>
                ) : null}
                {state !== "granted" && plugin.enabled ? (
                  // The consent screen again: for what is pending, or for this one declined earlier.
                  <Button
                    size="sm"
                    aria-label={`${state === "pending" ? "Review" : "Grant"} ${text.label} for ${plugin.name}`}
                    onClick={() =>
                      review({
                        id: plugin.id,
                        pendingCapabilities:
                          state === "pending" ? plugin.pendingCapabilities : [capability.id],
                      })
                    }
                  >
                    {state === "pending" ? "Review" : "Grant…"}
                  </Button>
                ) : null}
                {failure(revokes[revokeKey(plugin.id, capability.id)])}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
