/** Errors of the session service, each with a stable `name` and a message that says what to do. */

/** A request that does not fit the session's state (regenerate while a reply streams). */
export class SessionBusyError extends Error {
  override readonly name = "SessionBusyError";
}

/** A message or argument the chat cannot take (an empty message, nothing to regenerate). */
export class SessionInputError extends Error {
  override readonly name = "SessionInputError";
}

export class SessionNotFoundError extends Error {
  override readonly name = "SessionNotFoundError";
  constructor(readonly sessionId: string) {
    super(`No chat with id ${sessionId} exists (it may have been deleted); pick another from the list.`);
  }
}
