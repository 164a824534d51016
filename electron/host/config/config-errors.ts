/** One thing wrong with a settings document, named by its dotted key (e.g. `display.busy_input_mode`). */
export interface ConfigIssue {
  key: string;
  /** A full sentence that names the key and says what is allowed. */
  message: string;
}

/** A problem plus the document path whose removal lets that key run at its default. */
export interface DocumentIssue extends ConfigIssue {
  repairPath: string[];
}

/** A write to `config.yaml` was refused; nothing was written. */
export class ConfigValidationError extends Error {
  override readonly name = "ConfigValidationError";
  /** The dotted key of the first problem. */
  readonly key: string;
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly [ConfigIssue, ...ConfigIssue[]]) {
    super(issues.map((issue) => issue.message).join("; "));
    this.key = issues[0].key;
    this.issues = issues;
  }

  static single(key: string, message: string): ConfigValidationError {
    return new ConfigValidationError([{ key, message }]);
  }
}

/** `config.yaml` does not parse as YAML or is not a mapping of settings. */
export class ConfigParseError extends Error {
  override readonly name = "ConfigParseError";
}

/** What an OS error code means for the settings file, and what the person can do about it. */
const unreadableCauses: Record<string, { what: string; fix: (file: string) => string }> = {
  EISDIR: {
    what: "it is a folder, not a file",
    fix: () => "Move that folder somewhere else (settings live in that one file), then start again.",
  },
  EACCES: {
    what: "permission denied",
    fix: (file) =>
      `Give your user read and write access to it (chmod 600 "${file}") or move it aside, then start again.`,
  },
  EPERM: {
    what: "the operation is not permitted",
    fix: (file) =>
      `Give your user read and write access to it (chmod 600 "${file}") or move it aside, then start again.`,
  },
  ENOTDIR: {
    what: "a part of its path is a file, not a folder",
    fix: () => "Pick another data home with --home, or fix the path, then start again.",
  },
  EIO: {
    what: "the disk reported an input/output error",
    fix: () => "Check the disk, copy the file elsewhere if you can, then start again.",
  },
};

/**
 * `config.yaml` exists but cannot be read at all (a folder, no permission). Unlike a file that
 * does not parse, it cannot be moved aside safely nor overwritten without losing what it holds,
 * so the app says which file, what is wrong and what to do, and does not start on top of it.
 */
export class ConfigUnreadableError extends Error {
  override readonly name = "ConfigUnreadableError";
  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    const cause = unreadableCauses[code];
    super(
      `Hermes Desktop cannot read its settings file ${file}: ${cause?.what ?? code}. ` +
        (cause?.fix(file) ?? "Fix or move that file, then start again."),
    );
  }

  /** The error as a ConfigUnreadableError when it is one of the codes above, else null. */
  static from(file: string, error: unknown): ConfigUnreadableError | null {
    if (error instanceof ConfigUnreadableError) return error;
    const code = (error as NodeJS.ErrnoException | null)?.code;
    return typeof code === "string" && Object.hasOwn(unreadableCauses, code)
      ? new ConfigUnreadableError(file, code)
      : null;
  }
}
