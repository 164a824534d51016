/** A plugin's status in one word, coloured by what it means. */
import type { PluginStatus } from "../../../../electron/host/rpc/methods/plugins.js";
import { Spinner } from "../../ui/spinner.js";

const statusLabel: Readonly<Record<PluginStatus, string>> = {
  loaded: "Loaded",
  failed: "Failed",
  disabled: "Disabled",
  loading: "Loading",
};

export function PluginStatusBadge({ status }: { status: PluginStatus }) {
  return (
    <span className={`badge plugin-status plugin-status-${status}`} data-status={status}>
      {status === "loading" ? (
        <Spinner size={11} />
      ) : (
        <span className="plugin-status-dot" aria-hidden="true" />
      )}
      {statusLabel[status]}
    </span>
  );
}
