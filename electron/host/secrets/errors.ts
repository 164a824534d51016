/**
 * Errors of the secrets layer. Each has a stable `name` and a `reason` that the RPC layer passes
 * through as `error.data.reason` (docs/contract.md §11).
 */

/**
 * Why no keychain answered. `binding_missing`: keytar's native module is not installed (it is an
 * optional dependency, so `npm install` leaves it out where libsecret's headers are missing);
 * `service_unavailable`: the binding loaded but no unlocked Secret Service / keychain replied.
 */
export type KeychainProblem = "binding_missing" | "service_unavailable";

/** No OS keychain answered: keytar would not load, or no unlocked Secret Service replied in time. */
export class KeychainUnavailableError extends Error {
  override readonly name = "KeychainUnavailableError";
  readonly reason = "keychain_unavailable" as const;
  /** The underlying failure, already scrubbed of any key value. */
  readonly detail: string;
  readonly problem: KeychainProblem;
  /** What the person can do about it, in one sentence for this platform and problem. */
  readonly advice: string;

  constructor(operation: string, detail: string, problem: KeychainProblem = "service_unavailable") {
    const advice = keychainFixAdvice(problem);
    super(
      `The OS keychain is not available, so ${operation} failed: ${detail}. ` +
        `To fix it: ${advice} ` +
        `Or set \`key_env\` on the provider to read its key from an environment variable instead.`,
    );
    this.detail = detail;
    this.problem = problem;
    this.advice = advice;
  }
}

/** A provider's key could not be saved for want of a keychain; nothing was written. */
export class KeyNotSavedError extends Error {
  override readonly name = "KeyNotSavedError";
}

/** A provider id, profile or key that cannot be stored (empty, or an ambiguous account name). */
export class InvalidVaultInputError extends Error {
  override readonly name = "InvalidVaultInputError";
  readonly reason = "invalid_params" as const;
}

// The fix differs per platform and problem: a binding that was never built needs the system
// library and a rebuild; a binding without a running, unlocked keychain needs the keychain.
export function keychainFixAdvice(
  problem: KeychainProblem,
  platform: NodeJS.Platform = process.platform,
): string {
  if (problem === "binding_missing") {
    switch (platform) {
      case "darwin":
        return "run `npm rebuild keytar` (it needs the Xcode Command Line Tools: `xcode-select --install`), then restart the app.";
      case "win32":
        return "run `npm rebuild keytar` (it needs the Visual Studio Build Tools with the C++ workload), then restart the app.";
      default:
        return (
          "install libsecret and rebuild the keychain binding, then restart the app — " +
          "Debian/Ubuntu: `sudo apt install libsecret-1-dev && npm rebuild keytar`; " +
          "Fedora: `sudo dnf install libsecret-devel && npm rebuild keytar`; " +
          "Arch: `sudo pacman -S libsecret && npm rebuild keytar`."
        );
    }
  }
  switch (platform) {
    case "darwin":
      return "unlock the login keychain (Keychain Access) and allow Hermes Desktop to use it.";
    case "win32":
      return "make sure Windows Credential Manager is running for your user account.";
    default:
      return (
        "unlock your keychain, or run the app in a desktop session with a Secret Service " +
        "running (gnome-keyring or KWallet) on its D-Bus session bus."
      );
  }
}
