/**
 * The session store's automatic backups (sessions/recovery/store-backups.ts): daily and before every schema
 * migration, the newest 7 kept in `<data home>/backups/`. Settings → General lists and restores them.
 */
import { Type } from "@sinclair/typebox";
import { method, noParams, params } from "../define.js";

export interface BackupView {
  /** The file's name in the backups folder: what `backups.restore` takes. */
  name: string;
  reason: "daily" | "before_migration";
  createdAt: number;
  bytes: number;
}

export const backupMethods = {
  /** Newest first. */
  "backups.list": method(noParams).returns<{ backups: BackupView[] }>(),
  /**
   * Replaces the session store with the backup. The current store is kept aside first (its path is
   * answered); refused with `conflict` while a reply is being written.
   */
  "backups.restore": method(params({ name: Type.String({ minLength: 1, maxLength: 300 }) })).returns<{
    restored: string;
    keptAside: string;
  }>(),
};
