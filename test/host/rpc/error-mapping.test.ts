/* eslint-disable @typescript-eslint/no-explicit-any -- RPC answers are read as plain JSON here. */
/**
 * Session errors reach the client through the one error map (`electron/host/error-mapping.ts`):
 * the session service throws its own classes and the router turns them into stable reasons.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mapServiceError } from "../../../electron/host/error-mapping.js";
import {
  SessionBusyError,
  SessionInputError,
  SessionNotFoundError,
} from "../../../electron/host/sessions/store/session-errors.js";
import { SessionStoreError } from "../../../electron/host/sessions/store/session-store-error.js";
import { startTestHost, type TestHost } from "../support/test-host.js";

describe("mapServiceError: session errors", () => {
  it("gives each session error its reason and keeps the message", () => {
    const cases: Array<[Error, string, Record<string, unknown>?]> = [
      [new SessionNotFoundError("s1"), "not_found"],
      [new SessionBusyError("A reply is still streaming; stop it first."), "conflict"],
      [new SessionInputError("A session title cannot be empty."), "invalid_params"],
      [SessionStoreError.notFound("/tmp/x.sqlite", "session", "s1"), "not_found"],
      [
        new SessionStoreError("store_locked", "The store is locked.", "/tmp/x.sqlite"),
        "store_error",
        { store: "store_locked" },
      ],
    ];
    for (const [error, reason, extra] of cases) {
      const mapped = mapServiceError(error);
      expect(mapped?.reason, error.name).toBe(reason);
      expect(mapped?.message).toBe(error.message);
      if (extra) expect(mapped?.toObject().data).toMatchObject(extra);
    }
  });

  it("leaves a RangeError or any unknown error to the router's internal_error", () => {
    expect(mapServiceError(new RangeError("x"))).toBeNull();
    expect(mapServiceError(new Error("x"))).toBeNull();
  });
});

describe("session errors over RPC", () => {
  let t: TestHost;
  beforeEach(async () => {
    t = await startTestHost();
  });
  afterEach(async () => t.dispose());

  it("an empty title is invalid_params saying what is wrong; an unknown chat is not_found", async () => {
    const created: any = await t.call("session.create", {});
    const { sessionId } = created.result;
    const blank: any = await t.call("session.rename", { sessionId, title: "   " });
    expect(blank.error.data.reason).toBe("invalid_params");
    expect(blank.error.message).toBe("A chat title cannot be empty.");

    const missing: any = await t.call("session.get", { sessionId: "00000000-0000-4000-8000-000000000000" });
    expect(missing.error.data.reason).toBe("not_found");
    const missingRename: any = await t.call("session.rename", {
      sessionId: "00000000-0000-4000-8000-000000000000",
      title: "x",
    });
    expect(missingRename.error.data.reason).toBe("not_found");
  });
});
