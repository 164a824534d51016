/* eslint-disable @typescript-eslint/no-explicit-any -- RPC answers are read as plain JSON here. */
/**
 * `providers.save` is where a provider's fields are checked and a new provider's id is derived:
 * each refusal names the field (`error.data.key`) in words that say what to fix, and writes nothing.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { slugifyProviderId } from "../../../electron/host/rpc/shared-rules/provider-id.js";
import { startTestHost, type TestHost } from "../support/test-host.js";

let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => t.dispose());

describe("providers.save checks the fields", () => {
  it.each([
    [{ name: "  ", base_url: "http://127.0.0.1:8080/v1" }, "name", "Give the provider a name."],
    [
      { name: "x".repeat(121), base_url: "http://127.0.0.1:8080/v1" },
      "name",
      "Keep the name under 120 characters.",
    ],
    [
      { name: "!!!", base_url: "http://127.0.0.1:8080/v1" },
      "name",
      "The name needs at least one letter or digit to make an ID from.",
    ],
    [{ name: "Box", base_url: " " }, "base_url", "Enter the endpoint's base URL, e.g. https://host/v1."],
    [{ name: "Box", base_url: "not a url" }, "base_url", /is not a URL.*http:\/\/ or https:\/\//],
    [
      { name: "Box", base_url: "ftp://box" },
      "base_url",
      "Use a full URL that starts with http:// or https://.",
    ],
    [{ name: "Box", base_url: "http://u:p@box/v1" }, "base_url", /must not hold credentials/],
    [
      { name: "Box", base_url: "http://box/v1", key_env: "1BAD" },
      "key_env",
      /letters, digits and underscores/,
    ],
  ])("%j is refused on %s", async (params, key, message) => {
    const answer: any = await t.call("providers.save", params);
    expect(answer.error.data).toMatchObject({ reason: "invalid_params", key });
    if (typeof message === "string") expect(answer.error.message).toBe(message);
    else expect(answer.error.message).toMatch(message);
    expect(existsSync(join(t.home, "config.yaml"))).toBe(false);
  });

  it("derives a new provider's id from its name and refuses a second one with the same id", async () => {
    const first: any = await t.call("providers.save", {
      name: "My Local Box!",
      base_url: "http://127.0.0.1:8080/v1/",
    });
    expect(first.result.provider).toMatchObject({
      id: "my-local-box",
      name: "My Local Box!",
      base_url: "http://127.0.0.1:8080/v1",
    });
    expect(slugifyProviderId("My Local Box!")).toBe("my-local-box");

    const again: any = await t.call("providers.save", {
      name: "my local box",
      base_url: "http://127.0.0.1:9/v1",
    });
    expect(again.error.data).toMatchObject({ reason: "invalid_params", key: "name" });
    expect(again.error.message).toBe(
      'A provider with the ID "my-local-box" already exists. Edit that one, or pick another name.',
    );

    // A preset added twice is refused too; an edit (id without create) updates it.
    expect(
      (
        (await t.call("providers.save", {
          id: "openai",
          create: true,
          name: "OpenAI",
          base_url: "https://api.openai.com/v1",
        })) as any
      ).error,
    ).toBeUndefined();
    const twice: any = await t.call("providers.save", {
      id: "openai",
      create: true,
      name: "OpenAI",
      base_url: "https://api.openai.com/v1",
    });
    expect(twice.error.data.key).toBe("name");
    const edit: any = await t.call("providers.save", {
      id: "my-local-box",
      name: "Renamed",
      base_url: "http://127.0.0.1:8080/v1",
    });
    expect(edit.result.provider).toMatchObject({ id: "my-local-box", name: "Renamed" });
  });
});
