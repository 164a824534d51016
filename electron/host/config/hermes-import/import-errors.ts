/** Errors of the Hermes import (docs/contract.md §3.1); `error-mapping.ts` turns them into RPC reasons. */

/** The Hermes files can't be imported as they are; the message names the file or key and what is wrong. Nothing was written. */
export class HermesImportError extends Error {
  override readonly name = "HermesImportError";
  constructor(
    message: string,
    /** The Hermes key at fault, when one is. */
    readonly key?: string,
  ) {
    super(message);
  }
}

/** `settings.import.undo` without an import to undo. */
export class NothingToRestoreError extends Error {
  override readonly name = "NothingToRestoreError";
}
