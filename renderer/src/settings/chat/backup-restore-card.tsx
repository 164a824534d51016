/**
 * Settings → Chat → Restore from backup: the session store's automatic backups (daily and before
 * every update of its format, the newest 7 kept). Restoring asks first; the chats it replaces are
 * kept aside by the host, never deleted, and the answer says where.
 */
import { Check } from "lucide-react";
import { useEffect, useState } from "react";
import type { BackupView } from "../../../../electron/host/rpc/methods/backups.js";
import { describeError } from "../../api/rpc-error.js";
import { useBackups } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { Dialog } from "../../ui/dialog.js";
import { InlineAlert } from "../../ui/inline-alert.js";
import { LoadableView } from "../../ui/loadable-view.js";

const REASONS: Record<BackupView["reason"], string> = {
  daily: "Daily",
  before_migration: "Before an update",
};

const when = (backup: BackupView) =>
  new Date(backup.createdAt).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

const size = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function BackupRestoreCard() {
  const backups = useBackups((s) => s.backups);
  const load = useBackups((s) => s.load);
  const restore = useBackups((s) => s.restore);
  const [asking, setAsking] = useState<BackupView | null>(null);
  const [restoring, setRestoring] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  const close = () => {
    if (restoring) return;
    setError(null);
    setAsking(null);
  };

  const confirm = async () => {
    if (!asking) return;
    setRestoring(true);
    setError(null);
    try {
      const { keptAside } = await restore(asking.name);
      setDone(`Restored the backup of ${when(asking)}. The chats it replaced were kept in ${keptAside}.`);
      setAsking(null);
      void load();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setRestoring(false);
    }
  };

  return (
    <div className="card card-padded" aria-labelledby="backup-restore-heading" role="region">
      <div className="card-header">
        <h2 className="card-title" id="backup-restore-heading">
          Restore from backup
        </h2>
        <p className="card-description">
          Your chats are backed up every day and before each update of their format; the newest 7 are kept.
        </p>
      </div>
      <LoadableView
        value={backups}
        loadingText="Loading backups…"
        failureText="Couldn't list the backups"
        onRetry={load}
      >
        {(list) =>
          list.length === 0 ? (
            <p className="card-footnote">
              No backup yet: the first one is made a minute after the app starts.
            </p>
          ) : (
            <ul className="backup-list" aria-label="Backups">
              {list.map((backup) => (
                <li key={backup.name} className="backup-row" data-backup={backup.name}>
                  <span>
                    {when(backup)} · {REASONS[backup.reason]} · {size(backup.bytes)}
                  </span>
                  <Button
                    size="sm"
                    onClick={() => {
                      setDone(null);
                      setAsking(backup);
                    }}
                    aria-label={`Restore the backup of ${when(backup)}`}
                  >
                    Restore…
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </LoadableView>
      <p role="status" className="save-status">
        {done ? (
          <>
            <Check size={14} aria-hidden="true" />
            {done}
          </>
        ) : null}
      </p>
      <Dialog
        open={asking !== null}
        onOpenChange={(open) => (open ? undefined : close())}
        title={asking ? `Restore the backup of ${when(asking)}?` : "Restore the backup?"}
        description="Your chats are replaced by the ones in this backup. The current chats are kept aside in a file first, not deleted."
        width="sm"
      >
        <div className="dialog-body">
          {error ? <InlineAlert>{error}</InlineAlert> : null}
          <footer className="dialog-footer">
            <Button variant="ghost" onClick={close} disabled={restoring}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void confirm()} disabled={restoring} busy={restoring}>
              {restoring ? "Restoring…" : "Restore"}
            </Button>
          </footer>
        </div>
      </Dialog>
    </div>
  );
}
