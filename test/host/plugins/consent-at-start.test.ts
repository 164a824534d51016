/**
 * The consent question at start (docs/contract.md §7.2): a plugin already enabled in config.yaml
 * whose declared capabilities were never answered is asked about as the host starts, so an app
 * opened after an update (or a hand edit) shows the consent screen; one already answered is not.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { capabilitiesHash } from "../../../electron/host/plugins/capabilities/capabilities.js";
import type { PluginView } from "../../../electron/host/rpc/methods/plugins.js";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";
import { tempHome, waitFor } from "../support/temp-home.js";

const SQ = "llm.side_question";

function writePlugin(home: string, id: string) {
  const dir = path.join(home, "plugins", id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "plugin.yaml"),
    `name: ${id}\nversion: 1.0.0\ndescription: test\nmain: index.js\ncapabilities: [${SQ}]\n`,
  );
  fs.writeFileSync(path.join(dir, "index.js"), "export function register() {}\n");
}

let rig: SessionRig;
let temp: { dir: string; cleanup(): void };

beforeAll(async () => {
  temp = tempHome("hermes-consent-start-");
  writePlugin(temp.dir, "unasked");
  writePlugin(temp.dir, "answered");
  fs.writeFileSync(
    path.join(temp.dir, "config.yaml"),
    [
      "plugins:",
      "  enabled: [unasked, answered]",
      "  entries:",
      "    answered:",
      `      granted_capabilities: [${SQ}]`,
      "      capabilities_consent:",
      `        hash: ${capabilitiesHash([SQ])}`,
      '        granted_at: "2026-11-30T09:00:00Z"',
      "",
    ].join("\n"),
  );
  rig = await startSessionRig({ home: temp.dir });
  await rig.host.plugins.ready();
});
afterAll(async () => {
  await rig.dispose();
  temp.cleanup();
});

it("asks at start for an enabled plugin never answered, and not for one already answered", async () => {
  const asked = await rig.waitForEvent("plugin.consent_required", (p) => p.id === "unasked");
  expect(asked).toEqual({ id: "unasked", pendingCapabilities: [SQ] });
  await waitFor(async () =>
    (await rig.ok("plugins.list")).plugins.every((p: PluginView) => p.status === "loaded"),
  );
  expect(rig.events("plugin.consent_required").map((p) => p.id)).toEqual(["unasked"]);
  const { plugins } = await rig.ok("plugins.list");
  expect(plugins.find((p: PluginView) => p.id === "answered")).toMatchObject({
    capabilities: [{ id: SQ, granted: true }],
    pendingCapabilities: [],
  });
});
