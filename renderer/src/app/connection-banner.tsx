/** Says so when the web UI lost its connection to the host; it reconnects by itself. */
import { WifiOff } from "lucide-react";
import { launchTokenMissing } from "../api/create-client.js";
import { useHost } from "../stores/stores-context.js";
import { Spinner } from "../ui/spinner.js";

export function ConnectionBanner() {
  const connection = useHost((s) => s.connection);
  if (connection === "connected") return null;
  if (launchTokenMissing()) {
    // A new tab or a bookmark of `/`: the token lives only in the tab that opened the printed URL.
    return (
      <div role="status" className="connection-banner connection-reconnecting">
        <WifiOff size={14} aria-hidden="true" />
        This tab has no launch token. Open the URL Hermes Desktop printed at launch (it ends in ?token=…).
      </div>
    );
  }
  return (
    <div role="status" className={`connection-banner connection-${connection}`}>
      {connection === "reconnecting" ? <WifiOff size={14} aria-hidden="true" /> : <Spinner size={14} />}
      {connection === "reconnecting"
        ? "Lost the connection to Hermes Desktop. Reconnecting…"
        : "Connecting to Hermes Desktop…"}
    </div>
  );
}
