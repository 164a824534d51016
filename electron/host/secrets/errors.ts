/**
 * Errors of the secrets layer. Each has a stable `name` and a `reason` that the RPC layer passes
 * through as `error.data.reason` (SPEC §11).
 */

/** No OS keychain answered: keytar would not load, or no unlocked Secret Service replied in time. */
export class KeychainUnavailableError extends Error {
  override readonly name = "KeychainUnavailableError";
  readonly reason = "keychain_unavailable" as const;
  /** The underlying failure, already scrubbed of any key value. */
  readonly detail: string;

  constructor(operation: string, detail: string) {
    super(
      `The OS keychain is not available, so ${operation} failed: ${detail}. ` +
        `To fix it: ${fixAdvice()} ` +
        `Or set \`key_env\` on the provider to read its key from an environment variable instead.`,
    );
    this.detail = detail;
  }
}

/** A provider id, profile or key that cannot be stored (empty, or an ambiguous account name). */
export class InvalidVaultInputError extends Error {
  override readonly name = "InvalidVaultInputError";
  readonly reason = "invalid_params" as const;
}

// The fix differs per platform; on Linux the usual culprit is a missing or locked Secret Service.
function fixAdvice(): string {
  switch (process.platform) {
    case "darwin":
      return "unlock the login keychain (Keychain Access) and allow Hermes Desktop to use it.";
    case "win32":
      return "make sure Windows Credential Manager is running for your user account.";
    default:
      return (
        "unlock your keychain, or install and start a Secret Service " +
        "(e.g. gnome-keyring or KWallet) in your desktop session with a D-Bus session bus."
      );
  }
}
