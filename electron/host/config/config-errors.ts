/** One thing wrong with a settings document, named by its dotted key (e.g. `display.busy_input_mode`). */
export interface ConfigIssue {
  key: string;
  /** A full sentence that names the key and says what is allowed. */
  message: string;
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
