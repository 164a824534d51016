// The plugin host's launch arguments (runtime/launch/plugin-host-args.ts): what the host writes reads back
// the same, and each malformed argument is refused saying what is wrong.
import { describe, expect, it } from "vitest";
import {
  encodePluginHostArgs,
  parsePluginHostArgs,
  type PluginHostArgs,
} from "../../../electron/host/plugins/runtime/launch/plugin-host-args.js";

const good: PluginHostArgs = {
  confinement: "worker",
  grants: { read: ["/opt/Hermes/app", "/home/u/.hermes/plugins"], write: ["/home/u/.hermes/plugin-data"] },
  spares: { count: 2, heapMb: 256 },
};
const withArgs = (patch: Record<string, unknown>) => [JSON.stringify({ ...good, ...patch })];

describe("the plugin host's launch arguments", () => {
  it("read back as written, with or without spares", () => {
    expect(parsePluginHostArgs(encodePluginHostArgs(good))).toEqual(good);
    const none = { ...good, confinement: "process" as const, spares: null };
    expect(parsePluginHostArgs(encodePluginHostArgs(none))).toEqual(none);
  });

  it.each([
    [[], /expected one JSON argument with its launch settings, got 0 arguments/],
    [["2", "256"], /expected one JSON argument with its launch settings, got 2 arguments/],
    [["{not json"], /not valid JSON/],
    [["[1]"], /must be a JSON object/],
    [withArgs({ confinement: "thread" }), /confinement must be "process" or "worker", not "thread"/],
    [withArgs({ grants: null }), /grants must be an object \{read, write\}/],
    [
      withArgs({ grants: { read: ["relative/dir"], write: [] } }),
      /grants.read must be a list of absolute folder paths/,
    ],
    [
      withArgs({ grants: { read: [], write: "/tmp" } }),
      /grants.write must be a list of absolute folder paths/,
    ],
    [withArgs({ spares: 2 }), /spares must be null or an object \{count, heapMb\}/],
    [withArgs({ spares: { count: 0, heapMb: 256 } }), /spares.count must be a positive whole number/],
    [withArgs({ spares: { count: 1, heapMb: 1.5 } }), /spares.heapMb must be a positive whole number/],
  ])("refuses %j", (argv, message) => {
    expect(() => parsePluginHostArgs(argv as string[])).toThrow(message);
  });
});
