/**
 * Whether the OS keychain answers, checked once at start-up, as a `host.info` notice worded in the
 * provider form's own labels — so the Providers page can say so before anyone types a key.
 */
import type { Notice } from "../rpc/methods/host.js";
import { KeychainUnavailableError } from "./errors.js";
import type { Vault } from "./vault.js";

export const KEYCHAIN_NOTICE_KIND = "keychain_unavailable";

/** How long `host.info` waits for the first answer; a keychain still thinking counts as present. */
const answerWithinMs = 1_500;

/** The advice in the form's words: what to leave empty and what to fill instead. */
export function keychainAdvice(detail: string): string {
  return (
    `No system keychain is available (${detail}), so a key typed into “API key” can't be saved. ` +
    "Leave “API key” empty and put the key in an environment variable instead: enter its name under " +
    "“Key environment variable” (key_env). Or unlock or install a Secret Service (e.g. gnome-keyring " +
    "or KWallet) and restart Hermes Desktop."
  );
}

/** Starts the check (it also teaches the redactor every stored key); call the result for the notices. */
export function watchKeychain(vault: Vault): () => Promise<Notice[]> {
  const check: Promise<Notice[]> = vault.listAccounts().then(
    () => [],
    (err: unknown) =>
      err instanceof KeychainUnavailableError
        ? [{ kind: KEYCHAIN_NOTICE_KIND, message: keychainAdvice(err.detail) }]
        : [],
  );
  const late = () =>
    new Promise<Notice[]>((resolve) => setTimeout(() => resolve([]), answerWithinMs).unref());
  return () => Promise.race([check, late()]);
}
