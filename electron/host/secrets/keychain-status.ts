import type { Notice } from "../rpc/methods/host-info.js";
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

  /**
   * Resolves once the probe has an answer or `boundMs` passed, whichever is first: `host.info`
   * waits this long, so its first answer after start-up already carries the notice (a missing
   * binding answers at once; a keychain that hangs is reported later, by `host.changed`).
   */
  settledWithin(boundMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, boundMs);
    });
    return Promise.race([this.probe, bound]).finally(() => clearTimeout(timer));
  }

  notices(): Notice[] {
    if (!this.problem) return [];
    return [{ kind: "keychain_unavailable", message: keychainNotice(this.problem) }];
  }
}

/**
 * The notice's words, in the provider form's own labels: what is off and why, what to do instead
 * right now, what still works, and how to fix it for good.
 */
export function keychainNotice(problem: KeychainUnavailableError): string {
  const why =
    problem.problem === "binding_missing" ? "its library, keytar, is not installed" : problem.detail;
  return (
    `No system keychain is available (${why}), so a key typed into “API key” can't be saved. ` +
    "Leave “API key” empty and put the key in an environment variable instead: enter its name under " +
    "“Key environment variable” (key_env). Keyless local providers (llama.cpp, Ollama, LM Studio, vLLM) " +
    `work as they are. To fix it: ${problem.advice}`
  );
}
