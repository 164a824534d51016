/* eslint-disable @typescript-eslint/no-explicit-any -- RPC answers are read as plain JSON here. */
/**
 * Malformed requests that once ended in `internal_error` (issue 13) get `invalid_params` (or the
 * method's own reason) with a message that names what is wrong.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost, type TestHost } from "../support/test-host.js";

let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => t.dispose());

function nestedArrays(depth: number): unknown {
  return JSON.parse(`${"[".repeat(depth)}1${"]".repeat(depth)}`);
}

describe("malformed params", () => {
  it("a settings.set value nested 10,000 deep is invalid_params naming the value", async () => {
    const answer: any = await t.call("settings.set", {
      key: "display.busy_input_mode",
      value: nestedArrays(10_000),
    });
    expect(answer.error.data).toMatchObject({ reason: "invalid_params", key: "value" });
    expect(answer.error.message).toMatch(/^params\.value\.0\.0… nests deeper than 64 levels/);
    // Nothing was written and the host still answers.
    expect(((await t.call("settings.get", {})) as any).result.display?.busy_input_mode ?? "queue").toBe(
      "queue",
    );
  });

  it("providers.models never answers internal_error, whatever the id or the stored base URL", async () => {
    for (const id of ["constructor", "hasownproperty", "prototype", "tostring", "valueof", "x"]) {
      const answer: any = await t.call("providers.models", { id });
      expect(answer.error?.data.reason, id).toBe("not_found");
      expect(answer.error.message).toContain(id);
    }
    for (const base_url of ["x", "http://[::1", "ftp://127.0.0.1:9/v1", "http://127.0.0.1:9/v1"]) {
      const saved: any = await t.call("providers.save", { id: "odd", name: "Odd", base_url });
      const answer: any = await t.call("providers.models", { id: "odd" });
      const reason = saved.error?.data.reason ?? answer.error?.data.reason;
      expect(reason, base_url).toMatch(/^(invalid_params|provider_error)$/);
    }
  });
});
