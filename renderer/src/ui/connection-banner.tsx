/** Says so when the web UI lost its connection to the host; it reconnects by itself. */
import { WifiOff } from "lucide-react";
import { useHost } from "../stores/stores-context.js";
import { Spinner } from "./spinner.js";

export function ConnectionBanner() {
  const connection = useHost((s) => s.connection);
  if (connection === "connected") return null;
  return (
    <div role="status" className={`connection-banner connection-${connection}`}>
      {connection === "reconnecting" ? <WifiOff size={14} aria-hidden="true" /> : <Spinner size={14} />}
      {connection === "reconnecting"
        ? "Lost the connection to Hermes Desktop. Reconnecting…"
        : "Connecting to Hermes Desktop…"}
    </div>
  );
}
