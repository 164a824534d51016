import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import Conf from "conf";
import { systemClock, type Clock } from "../clock.js";
import {
  backUp,
  fileFingerprint,
  moveAside,
  readTextIfPresent,
  removeStaleTempFiles,
} from "./config-files.js";
import { ConfigParseError, ConfigUnreadableError, ConfigValidationError } from "./config-errors.js";
import {
  invalidNotice,
  movedAsideNotice,
  noAccessNotice,
  unreadableNotice,
  type ConfigNotice,
  conflictNotice,
  staleWriteNotice,
} from "./config-notices.js";
import type { Settings, SettingsDocument } from "./config-schema.js";
import { assertPlainData, deleteAtPath, parseDottedKey, setAtPath } from "./document-paths.js";
import { watchConfigFile } from "./config-watcher.js";
import { changedKeys, overlappingKeys, valueAt } from "./document-diff.js";
import { findDocumentIssues, type DocumentIssue } from "./schema-issues.js";
import { repairDocument, toEffectiveSettings } from "./settings-repair.js";
import { parseConfigText, serializeConfig } from "./yaml-codec.js";

import { CONFIG_FILE_NAME } from "./config-file.js";

export { CONFIG_FILE_NAME };

export interface SettingsStoreOptions {
  /** The data home; created when missing. */
  home: string;
  /** Names the `.corrupt-<time>` and `.bak-<time>` files. */
  clock?: Clock;
}

export type SettingsListener = (settings: Settings, notices: readonly ConfigNotice[]) => void;

/** What the file on disk holds right now, as far as the app is concerned. */
interface Snapshot {
  fingerprint: string;
  /**
   * "invalid": parses but breaks the schema; "corrupt": does not parse (left in place);
   * "no_access": cannot be read at all (became a folder, lost its permissions) while running.
   */
  state: "ok" | "invalid" | "corrupt" | "no_access";
  /** Set with "no_access": what a write would hit. */
  noAccess?: ConfigUnreadableError;
  /** The valid part of the file: the base every write starts from. */
  document: SettingsDocument;
  issues: DocumentIssue[];
  parseError: string | null;
  settings: Settings;
  /** `document`, copied and deep-frozen on first ask, for readers that only look. */
  frozenDocument?: Readonly<SettingsDocument>;
}

/**
 * `config.yaml` in the data home (docs/contract.md §2, §3). conf is the file engine (YAML codec, atomic
 * writes); validation, recovery and notices are ours. Every read checks the file first, so a hand
 * edit is seen by the next `get()` and policies are never cached across edits.
 */
export class SettingsStore {
  readonly path: string;
  readonly #clock: Clock;
  readonly #conf: Conf<Record<string, unknown>>;
  #snapshot: Snapshot | null = null;
  /** Set when a corrupt file was moved aside; lasts until a hand-made config.yaml parses. */
  #movedAside: { notice: ConfigNotice; fingerprint: string } | null = null;
  /** The watcher saw the file change since the last look (see `watched`). */
  #stirred = false;
  #ownWriteFingerprint: string | null = null;
  /** The last save met another program's change of the same key; cleared by the next clean save. */
  #conflict: ConfigNotice | null = null;
  readonly #listeners = new Set<SettingsListener>();
  #lastEmitted: { settings: Settings; notices: ConfigNotice[] };
  #stopWatching: () => void = () => undefined;
  #closed = false;

  constructor(options: SettingsStoreOptions) {
    this.#clock = options.clock ?? systemClock;
    fs.mkdirSync(options.home, { recursive: true });
    this.path = path.join(options.home, CONFIG_FILE_NAME);
    // Temp files carry wall-clock mtimes, so they are aged against the wall clock.
    removeStaleTempFiles(this.path, Date.now());
    try {
      this.#conf = this.#openConf(options.home);
    } catch (error) {
      // A folder or a file without permission: say so in one line rather than start on top of it.
      throw ConfigUnreadableError.from(this.path, error) ?? error;
    }
    this.#lastEmitted = { settings: this.#read().settings, notices: this.notices() };
    if (this.#snapshot?.noAccess) throw this.#snapshot.noAccess;
    this.#stopWatching = watchConfigFile(
      this.path,
      () => {
        if (this.#closed) return;
        try {
          this.#emitIfChanged();
        } catch (error) {
          console.error("reading config.yaml after a change failed:", error);
        }
      },
      () => (this.#stirred = true),
    );
  }

  /** The effective settings (defaults where the file says nothing or something invalid). */
  get(): Settings {
    return this.#read().settings;
  }

  /**
   * As `get()`, but the file is looked at only when the watcher saw it stir since the last look:
   * a hand edit is seen once its event has arrived (at once where the folder can be watched,
   * within a second where it is polled). For a chat turn's settings, read in front of its
   * request; a check that must see an edit on the very next call (a plugin's trust policy) uses
   * `get()` or `view()`, which always look.
   */
  watched(): Settings {
    if (!this.#stirred && this.#snapshot) return this.#snapshot.settings;
    this.#stirred = false;
    return this.#read().settings;
  }

  /**
   * A copy of the file's valid content as written, without defaults: tells an absent key from an
   * empty one (e.g. `plugins.entries.<id>.llm.allowed_models`, where absent allows any value).
   */
  document(): SettingsDocument {
    return structuredClone(this.#read().document);
  }

  /**
   * The effective settings and the raw document from one read of the file, without copying
   * (both deep-frozen): for hot paths that check a policy on every call (`ctx.llm`).
   */
  view(): { settings: Settings; document: Readonly<SettingsDocument> } {
    const snapshot = this.#read();
    const document = (snapshot.frozenDocument ??= deepFreeze(structuredClone(snapshot.document)));
    return { settings: snapshot.settings, document };
  }

  /** Current problems with config.yaml; each disappears once its cause is fixed. */
  notices(): ConfigNotice[] {
    const snapshot = this.#read();
    const notices: ConfigNotice[] = [];
    if (this.#movedAside) notices.push(this.#movedAside.notice);
    if (this.#conflict) notices.push(this.#conflict);
    if (snapshot.state === "corrupt") notices.push(unreadableNotice(this.path, snapshot.parseError ?? ""));
    if (snapshot.state === "invalid") notices.push(invalidNotice(this.path, snapshot.issues));
    if (snapshot.noAccess) notices.push(noAccessNotice(snapshot.noAccess.message));
    return notices;
  }

  /** Sets one dotted key (`display.busy_input_mode`). Throws ConfigValidationError; nothing is written then. */
  /**
   * Writes one setting. `options.base` is the value the writer (a window) last read for the key:
   * when the key has changed since (another window saved it), the write still goes through, as
   * the person's latest action, but a conflict notice names the key and both values, so the other
   * window's value is not lost silently.
   */
  set(key: string, value: unknown, options: { base?: unknown } = {}): void {
    const keyPath = parseDottedKey(key);
    if (value === undefined) {
      throw ConfigValidationError.single(key, `${key} needs a value; use delete("${key}") to remove it`);
    }
    assertPlainData(value, key);
    const before = valueAt(this.get(), key);
    this.#commit((doc) => setAtPath(doc, keyPath, structuredClone(value)));
    const stale =
      options.base !== undefined &&
      !isDeepStrictEqual(before, options.base) &&
      !isDeepStrictEqual(before, value);
    if (stale) {
      this.#conflict = staleWriteNotice(key, before, value);
      this.#emitIfChanged();
    }
  }

  delete(key: string): void {
    const keyPath = parseDottedKey(key);
    this.#commit((doc) => {
      deleteAtPath(doc, keyPath);
    });
  }

  /** Edits a copy of the document (as the file holds it, not defaults-filled) and writes it if valid. */
  update(mutator: (draft: SettingsDocument) => SettingsDocument | void): void {
    this.#commit((doc) => {
      const result = mutator(doc);
      assertPlainData(result ?? doc, "(top level)");
      if (result === undefined || result === doc) return;
      if (typeof result !== "object" || result === null || Array.isArray(result)) {
        throw ConfigValidationError.single("(top level)", "update() must return a mapping of settings");
      }
      for (const key of Object.keys(doc)) delete doc[key];
      Object.assign(doc, result);
    });
  }

  /** Called after every change of the effective settings or notices (own writes and hand edits). */
  onChange(listener: SettingsListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#closed = true;
    this.#stopWatching();
    this.#listeners.clear();
  }

  #openConf(home: string): Conf<Record<string, unknown>> {
    const open = () =>
      new Conf<Record<string, unknown>>({
        cwd: home,
        configName: "config",
        fileExtension: "yaml",
        serialize: (value) => serializeConfig(value, this.#currentTextForEditing()),
        deserialize: parseConfigText,
        // Personal data (memory note, system prompt, grants): owner-only.
        configFileMode: 0o600,
      });
    // conf reads the file in its constructor and would throw on a corrupt one, so recover first;
    // a second attempt covers a file that broke between our check and conf's read.
    for (let attempt = 0; ; attempt++) {
      this.#moveAsideIfCorrupt();
      try {
        return open();
      } catch (error) {
        if (!(error instanceof ConfigParseError) || attempt > 0) throw error;
      }
    }
  }

  #moveAsideIfCorrupt(): void {
    const text = readTextIfPresent(this.path);
    if (text === null) return;
    try {
      parseConfigText(text);
    } catch (error) {
      if (!(error instanceof ConfigParseError)) throw error;
      this.#recordMoveAside(error.message);
    }
  }

  #recordMoveAside(reason: string): void {
    const movedTo = moveAside(this.path, this.#clock.now());
    this.#movedAside = {
      notice: movedAsideNotice(this.path, reason, movedTo),
      fingerprint: fileFingerprint(this.path),
    };
  }

  #currentTextForEditing(): string | null {
    try {
      return readTextIfPresent(this.path);
    } catch {
      return null;
    }
  }

  /** A fresh look at the file: re-parsed only when its fingerprint changed. */
  #read(): Snapshot {
    const fingerprint = fileFingerprint(this.path);
    if (this.#snapshot && this.#snapshot.fingerprint === fingerprint) return this.#snapshot;
    let raw: Record<string, unknown>;
    try {
      raw = this.#conf.store;
    } catch (error) {
      const noAccess = ConfigUnreadableError.from(this.path, error);
      if (!(error instanceof ConfigParseError) && !noAccess) throw error;
      // Left in place: the user may be mid-edit. Defaults meanwhile, so grants fail closed.
      const empty: SettingsDocument = {};
      this.#snapshot = {
        fingerprint,
        state: noAccess ? "no_access" : "corrupt",
        document: empty,
        issues: [],
        parseError: noAccess ? null : (error as Error).message,
        settings: toEffectiveSettings(empty),
        ...(noAccess ? { noAccess } : {}),
      };
      return this.#snapshot;
    }
    const handMade = fingerprint !== this.#ownWriteFingerprint;
    if (this.#movedAside && handMade && fingerprint !== this.#movedAside.fingerprint) this.#movedAside = null;
    const { repaired, issues } = repairDocument(raw);
    this.#snapshot = {
      fingerprint,
      state: issues.length > 0 ? "invalid" : "ok",
      document: repaired,
      issues,
      parseError: null,
      settings: toEffectiveSettings(repaired),
    };
    return this.#snapshot;
  }

  /**
   * Applies `edit` to a copy of the current document, validates the result, then writes it. The
   * write is a compare-and-swap: when another program (an editor, a second app) changed the file
   * after it was read, the edit is applied again to what the file now holds, so keys the other
   * changed are kept; a key both changed is a conflict, shown as a notice naming it.
   */
  #commit(edit: (doc: SettingsDocument) => void): void {
    let base: SettingsDocument | null = null;
    let ours: string[] = [];
    for (let attempt = 0; ; attempt++) {
      const current = this.#read();
      // Writing over a file we cannot read would lose it: refuse, saying what to do.
      if (current.noAccess) throw current.noAccess;
      const next = structuredClone(current.document);
      edit(next);
      const [first, ...rest] = findDocumentIssues(next);
      if (first) throw new ConfigValidationError([first, ...rest]);
      if (base === null) {
        base = current.document;
        ours = changedKeys(base, next);
      }
      if (fileFingerprint(this.path) !== current.fingerprint && attempt < CAS_ATTEMPTS) continue;
      const theirs = changedKeys(base, current.document);
      // Both wrote the same value: nothing was lost.
      const clash = overlappingKeys(ours, theirs).filter(
        (key) => !isDeepStrictEqual(valueAt(current.document, key), valueAt(next, key)),
      );
      this.#conflict = clash.length ? conflictNotice(this.path, clash, current.document, next) : null;
      if (current.state === "ok" && isDeepStrictEqual(next, current.document)) {
        this.#emitIfChanged();
        return;
      }

      if (current.state === "corrupt") this.#recordMoveAside(current.parseError ?? "");
      if (current.state === "invalid") backUp(this.path, this.#clock.now());
      this.#conf.store = next;
      this.#ownWriteFingerprint = fileFingerprint(this.path);
      this.#read();
      this.#emitIfChanged();
      return;
    }
  }

  #emitIfChanged(): void {
    const state = { settings: this.#read().settings, notices: this.notices() };
    if (isDeepStrictEqual(state, this.#lastEmitted)) return;
    this.#lastEmitted = state;
    for (const listener of [...this.#listeners]) {
      try {
        listener(state.settings, state.notices);
      } catch (error) {
        // One broken listener must not stop the others from hearing about the change.
        console.error("settings listener failed:", error);
      }
    }
  }
}

/** How often a save re-reads a file that changed under it before writing anyway. */
const CAS_ATTEMPTS = 5;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
