/**
 * `settings.import.*` (docs/contract.md §3.1): preview a Hermes set-up, import it in one validated,
 * atomic write (the chosen `.env` keys to the keychain, never to config.yaml) keeping the previous
 * file as `config.yaml.before-import`, and undo that.
 */
import fs from "node:fs";
import path from "node:path";
import type { SettingsStore } from "../settings-store.js";
import { parseConfigText } from "../yaml-codec.js";
import { KeyNotSavedError, KeychainUnavailableError } from "../../secrets/errors.js";
import { keychainNotice } from "../../secrets/keychain-status.js";
import type { Vault } from "../../secrets/vault.js";
import type { ImportPreview } from "../../rpc/methods/settings-import.js";
import { defaultHermesConfigPath, hermesConfigExists, readHermesSource } from "./hermes-source.js";
import { HermesImportError, NothingToRestoreError } from "./import-errors.js";
import { applyEdits, planImport, type PlannedImport } from "./plan-import.js";

export const BACKUP_SUFFIX = ".before-import";

type Env = Readonly<Record<string, string | undefined>>;

export class HermesImportService {
  constructor(
    private readonly settings: SettingsStore,
    private readonly vault: Vault,
    /** Where `$HERMES_HOME` is read (tests give their own). */
    private readonly env: Env = process.env,
  ) {}

  get backupPath(): string {
    return this.settings.path + BACKUP_SUFFIX;
  }

  /** Where an import would read from, when a Hermes config is there; and whether an import can be undone. */
  detect(): { source: string | null; canRestore: boolean } {
    return {
      source: hermesConfigExists(this.env) ? defaultHermesConfigPath(this.env) : null,
      canRestore: fs.existsSync(this.backupPath),
    };
  }

  preview(from?: string): ImportPreview {
    const { source, plan } = this.plan(from);
    return {
      source,
      changes: plan.changes,
      keys: plan.keys.map(({ env, provider, value }) => ({ env, provider, keyHint: value.slice(-4) })),
      pendingConsent: plan.pendingConsent,
      notImported: plan.notImported,
    };
  }

  async apply(from: string | undefined, keys: readonly string[]): Promise<{ ok: true; backup: string }> {
    const { plan } = this.plan(from);
    const offered = new Map(plan.keys.map((offer) => [offer.env, offer]));
    const chosen = [...new Set(keys)].map((env) => {
      const offer = offered.get(env);
      if (!offer) {
        throw new HermesImportError(
          `${env} is not a key this import offers; choose among ${[...offered.keys()].join(", ") || "none"}.`,
        );
      }
      return offer;
    });

    const pendingBackup = `${this.backupPath}.tmp-${process.pid}`;
    writeFileAtomically(pendingBackup, readIfPresent(this.settings.path) ?? "");
    const replaced: { provider: string; previous: string | null }[] = [];
    try {
      for (const offer of chosen) {
        replaced.push({ provider: offer.provider, previous: await this.vault.getKey(offer.provider) });
        await this.vault.setKey(offer.provider, offer.value);
      }
      this.settings.update((doc) => applyEdits(doc, plan.edits));
    } catch (error) {
      fs.rmSync(pendingBackup, { force: true });
      for (const { provider, previous } of replaced.reverse()) {
        await (previous ? this.vault.setKey(provider, previous) : this.vault.deleteKey(provider)).catch(
          () => false,
        );
      }
      if (error instanceof KeychainUnavailableError) {
        throw new KeyNotSavedError(`Nothing was imported. ${keychainNotice(error)}`);
      }
      throw error;
    }
    fs.renameSync(pendingBackup, this.backupPath);
    return { ok: true, backup: this.backupPath };
  }

  /** Puts back the file the last import replaced; providers only the import had lose their stored keys too. */
  async undo(): Promise<{ ok: true }> {
    const text = readIfPresent(this.backupPath);
    if (text === null) {
      throw new NothingToRestoreError(
        `Nothing to restore: there is no ${path.basename(this.backupPath)} from an import.`,
      );
    }
    const before = providerIds(text);
    const now = Object.keys(this.settings.document().providers ?? {});
    writeFileAtomically(this.settings.path, text);
    fs.rmSync(this.backupPath, { force: true });
    if (before) {
      for (const id of now.filter((id) => !before.has(id))) await this.vault.deleteKey(id).catch(() => false);
    }
    this.settings.get(); // read the restored file now, so listeners hear of it at once
    return { ok: true };
  }

  private plan(from: string | undefined): { source: string; plan: PlannedImport } {
    const source = readHermesSource(from, this.env);
    return { source: source.configPath, plan: planImport(source, this.settings.document()) };
  }
}

function providerIds(text: string): Set<string> | null {
  try {
    const providers = parseConfigText(text)["providers"];
    return new Set(typeof providers === "object" && providers !== null ? Object.keys(providers) : []);
  } catch {
    return null;
  }
}

function readIfPresent(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Settings are personal: owner-only, and never half-written. */
function writeFileAtomically(file: string, text: string): void {
  const temp = `${file}.tmp-${process.pid}-${Date.now()}`;
  fs.writeFileSync(temp, text, { mode: 0o600 });
  fs.renameSync(temp, file);
}
