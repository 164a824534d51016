import type { Notice } from "../rpc/methods/host.js";
import { KeychainUnavailableError } from "./errors.js";
import type { Vault } from "./vault.js";

/**
 * Whether the OS keychain answers, learned once at start-up by listing the stored keys (which also
 * teaches the redactor every key). A missing keychain is a condition the app runs with: keyless
 * local providers and `key_env` keep working, so it is reported as a notice, never a crash.
 */
export class KeychainStatus {
  private problem: KeychainUnavailableError | null = null;
  private readonly probe: Promise<void>;

  constructor(vault: Vault, onChange: () => void) {
    this.probe = vault.listAccounts().then(
      () => undefined,
      (err: unknown) => {
        if (!(err instanceof KeychainUnavailableError)) return;
        this.problem = err;
        onChange();
      },
    );
  }

  /** Resolves once the start-up probe has an answer (bounded by the vault's own keychain timeout). */
  settled(): Promise<void> {
    return this.probe;
  }

  notices(): Notice[] {
    if (!this.problem) return [];
    return [{ kind: "keychain_unavailable", message: keychainNotice(this.problem) }];
  }
}

/** The notice's words: what is off, what still works, and exactly what to do. */
export function keychainNotice(problem: KeychainUnavailableError): string {
  const what =
    problem.problem === "binding_missing"
      ? "The OS keychain is off: its library (keytar) is not installed."
      : `The OS keychain is off: ${problem.detail}.`;
  return (
    `${what} API keys can't be saved until it works; keyless local providers (llama.cpp, Ollama, ` +
    `LM Studio, vLLM) and a provider's key_env variable still work. To fix it: ${problem.advice}`
  );
}
