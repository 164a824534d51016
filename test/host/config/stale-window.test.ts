/**
 * Two windows of one app on one config.yaml (issue 32): the second saves a setting based on what
 * it read before the first changed it. Its value is written (the person's latest action), and a
 * `config_conflict` notice names the key and the value it replaced, so nothing is lost silently.
 * A window that read the current value, or a script that sends no `base`, sees no conflict.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost, type TestHost } from "../support/test-host.js";

let t: TestHost;
beforeEach(async () => {
  t = await startTestHost();
});
afterEach(async () => t.dispose());

const theme = async (window: string) =>
  ((await t.call("settings.get", {}, window)).result as { display: { theme: string } }).display.theme;
const conflicts = async () =>
  ((await t.call("host.info")).result as { notices: { kind: string; message: string }[] }).notices.filter(
    (n) => n.kind === "config_conflict",
  );

describe("a stale window saving settings", () => {
  it("writes its value and shows a conflict naming the key and the value it replaced", async () => {
    const seenByB = await theme("window-b");
    const seenByA = await theme("window-a");
    const saved = await t.call(
      "settings.set",
      { key: "display.theme", value: "light", base: seenByA },
      "window-a",
    );
    expect(saved.result).toEqual({ ok: true });
    expect(await conflicts()).toEqual([]);
    // Window B still shows what it read before A's change.
    const reply = await t.call(
      "settings.set",
      { key: "display.theme", value: "dark", base: seenByB },
      "window-b",
    );
    expect(reply.error).toBeUndefined();
    expect(await theme("window-a")).toBe("dark");
    expect(fs.readFileSync(path.join(t.home, "config.yaml"), "utf8")).toMatch(/theme: dark/);
    const [notice, ...more] = await conflicts();
    expect(more).toEqual([]);
    expect(notice!.message).toBe(
      'display.theme was changed in another window (to "light") after this window read it; this window\'s "dark" was saved over it. Set it again if the other value was the one you wanted.',
    );
  });

  it("shows no conflict when the window read the current value, when both agree, or without a base", async () => {
    await t.call(
      "settings.set",
      { key: "display.theme", value: "light", base: await theme("window-a") },
      "window-a",
    );
    await t.call(
      "settings.set",
      { key: "display.theme", value: "dark", base: await theme("window-b") },
      "window-b",
    );
    expect(await conflicts()).toEqual([]);
    // Stale, but saving the value the other window already saved: nothing to lose.
    await t.call("settings.set", { key: "display.theme", value: "dark", base: "light" }, "window-a");
    expect(await conflicts()).toEqual([]);
    await t.call("settings.set", { key: "display.theme", value: "light" }, "script");
    expect(await conflicts()).toEqual([]);
  });

  it("refuses an invalid value even with a base, naming the key", async () => {
    const reply = await t.call("settings.set", { key: "display.theme", value: "purple", base: "system" });
    expect(reply.error?.data.reason).toBe("invalid_params");
    expect(reply.error?.message).toMatch(/display\.theme/);
    expect(await conflicts()).toEqual([]);
  });
});
