/** View log: the tail of a server's `logs/mcp/<id>.log` (redacted by the host), with Refresh. */
import { RotateCcw } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { useMcpServers } from "../../stores/stores-context.js";
import { describeError } from "../../api/rpc-error.js";
import { Button } from "../../ui/button.js";
import { Dialog } from "../../ui/dialog.js";
import { LoadFailedAlert } from "../../ui/loadable-view.js";
import { LoadingLine } from "../../ui/spinner.js";
import { failedRefresh, loading, ready, type Loadable } from "../../stores/loadable.js";

type LogText = { text: string; truncated: boolean };

export function McpLogDialog({ serverId, onClose }: { serverId: string | null; onClose(): void }) {
  return (
    <Dialog
      open={serverId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={serverId ? `Log of ${serverId}` : "Server log"}
      description="What the server wrote to its error output, newest last. Secrets are masked."
    >
      {serverId ? <LogBody key={serverId} serverId={serverId} /> : null}
    </Dialog>
  );
}

function LogBody({ serverId }: { serverId: string }) {
  const readLog = useMcpServers((s) => s.readLog);
  const [log, setLog] = useState<Loadable<LogText>>(loading());
  const read = useCallback(async () => {
    try {
      setLog(ready(await readLog(serverId)));
    } catch (err) {
      setLog((current) => failedRefresh(current, describeError(err)));
    }
  }, [readLog, serverId]);
  useEffect(() => {
    void read();
  }, [read]);

  return (
    <div className="dialog-body">
      {log.kind === "loading" ? <LoadingLine>Reading the log…</LoadingLine> : null}
      {log.kind === "failed" ? (
        <LoadFailedAlert onRetry={read}>Couldn't read the log: {log.message}</LoadFailedAlert>
      ) : null}
      {log.kind === "ready" ? (
        <>
          {log.data.truncated ? <p className="field-hint">Only the end of the log is shown.</p> : null}
          <pre className="mcp-log" tabIndex={0} aria-label={`Log of ${serverId}`}>
            {log.data.text || "The log is empty."}
          </pre>
        </>
      ) : null}
      <footer className="dialog-footer">
        <Button icon={<RotateCcw size={14} aria-hidden="true" />} onClick={() => void read()}>
          Refresh
        </Button>
      </footer>
    </div>
  );
}
