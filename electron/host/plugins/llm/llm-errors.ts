/** The errors `ctx.llm` raises (docs/contract.md §6.6); their `name`s are public and plugins branch on them. */

/** Bad arguments: fix the call. Raised before any request is sent. */
export class PluginLlmInputError extends Error {
  override readonly name = "PluginLlmInputError";
}

/** An override the user has not granted; the message names the config key that would unlock it. */
export class PluginLlmTrustError extends Error {
  override readonly name = "PluginLlmTrustError";
}

/** The reply was JSON but did not match the plugin's `jsonSchema`. */
export class PluginLlmSchemaError extends Error {
  override readonly name = "PluginLlmSchemaError";
  constructor(
    message: string,
    /** The parsed reply, for the plugin to inspect. */
    readonly parsed: unknown,
    /** The raw reply text. */
    readonly text: string,
  ) {
    super(message);
  }
}
