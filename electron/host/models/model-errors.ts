/**
 * Errors of the providers and models services. Each has a stable `name`; `error-mapping.ts` alone
 * turns them into RPC reasons.
 */

/** A provider or model parameter that can't be used; `key` names the field to fix. */
export class ModelInputError extends Error {
  override readonly name = "ModelInputError";
  constructor(
    message: string,
    readonly key: string,
  ) {
    super(message);
  }
}

/** No provider with that id is configured. */
export class ProviderNotFoundError extends Error {
  override readonly name = "ProviderNotFoundError";
}

/** The provider answered with an error or not at all (its text already redacted). */
export class ProviderAnswerError extends Error {
  override readonly name = "ProviderAnswerError";
  constructor(
    message: string,
    /** The provider field to fix, when the failure points at one: its key, or its base URL. */
    readonly key?: "apiKey" | "base_url",
  ) {
    super(message);
  }
}
