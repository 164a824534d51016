/**
 * The sealed pipe between the host and the plugin host (sealed-channel.ts): frames cut anywhere
 * come out whole and in order; a frame forged without the key, replayed, reordered, sent back the
 * other way, or noise written into the pipe, is refused for good; nothing readable crosses the pipe.
 */
import { Duplex } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  ChannelTamperedError,
  FrameOpener,
  FrameSealer,
  newChannelKey,
  parseChannelKey,
  SealedChannel,
} from "../../../electron/host/plugins/runtime/channel/sealed-channel.js";

const text = (frames: Buffer[]) => frames.map((frame) => frame.toString("utf8"));

describe("sealed frames", () => {
  it("come out whole and in order from a stream cut at every byte", () => {
    const key = newChannelKey();
    const sealer = new FrameSealer(key, "to-host");
    const messages = ["one", "", "three ✓", "x".repeat(70_000)];
    const stream = Buffer.concat(messages.map((m) => sealer.seal(Buffer.from(m))));
    for (const step of [1, 3, 7, 4096, stream.length]) {
      const opener = new FrameOpener(key, "to-host");
      const out: Buffer[] = [];
      for (let at = 0; at < stream.length; at += step)
        out.push(...opener.push(stream.subarray(at, at + step)));
      expect(text(out)).toEqual(messages);
    }
  });

  it("carry nothing readable", () => {
    const frame = new FrameSealer(newChannelKey(), "to-plugin-host").seal(
      Buffer.from('{"pluginId":"bystander"}'),
    );
    expect(frame.toString("latin1")).not.toContain("bystander");
  });

  it("are refused when forged with another key, replayed, reordered, reflected, or noise", () => {
    const key = newChannelKey();
    const sealer = new FrameSealer(key, "to-host");
    const first = sealer.seal(Buffer.from("first"));
    const second = sealer.seal(Buffer.from("second"));
    const refused =
      (opener: FrameOpener, ...chunks: Buffer[]) =>
      () =>
        chunks.forEach((c) => opener.push(c));

    expect(
      refused(
        new FrameOpener(key, "to-host"),
        new FrameSealer(newChannelKey(), "to-host").seal(Buffer.from("x")),
      ),
    ).toThrow(ChannelTamperedError);
    expect(refused(new FrameOpener(key, "to-host"), first, first)).toThrow(/frame 1 failed its check/);
    expect(refused(new FrameOpener(key, "to-host"), second)).toThrow(/frame 0 failed its check/);
    // A frame the host sent, written back at the host, fails: each direction has its own keystream.
    expect(refused(new FrameOpener(key, "to-plugin-host"), first)).toThrow(ChannelTamperedError);
    // Bytes written into the pipe decrypt as noise: its check fails at once.
    expect(refused(new FrameOpener(key, "to-host"), Buffer.from("garbage, not a frame\n"))).toThrow(
      /frame 0 failed its check/,
    );
    // Noise after good frames fails the check of the next one.
    expect(refused(new FrameOpener(key, "to-host"), first, Buffer.alloc(64, 7))).toThrow(
      /frame 1 failed its check/,
    );
  });

  it("stay refused after a bad frame, even when good ones follow", () => {
    const key = newChannelKey();
    const sealer = new FrameSealer(key, "to-host");
    const opener = new FrameOpener(key, "to-host");
    expect(() => opener.push(Buffer.from("junk-junk-junk-junk-junk"))).toThrow(ChannelTamperedError);
    expect(() => opener.push(sealer.seal(Buffer.from("good")))).toThrow(ChannelTamperedError);
  });

  it("keys come only as 32 bytes of hex", () => {
    expect(parseChannelKey(newChannelKey().toString("hex"))).toHaveLength(32);
    expect(() => parseChannelKey(undefined)).toThrow(/HERMES_PLUGIN_CHANNEL_KEY is missing/);
    expect(() => parseChannelKey("abcd")).toThrow(/32-byte key/);
  });
});

/** Two ends of an in-memory pipe: what one writes, the other reads. */
function pipePair(): [Duplex, Duplex] {
  const a: Duplex = new Duplex({
    read() {},
    write: (chunk: Buffer, _encoding, done) => (b.push(chunk), done()),
  });
  const b: Duplex = new Duplex({
    read() {},
    write: (chunk: Buffer, _encoding, done) => (a.push(chunk), done()),
  });
  return [a, b];
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("a sealed channel", () => {
  it("carries messages both ways as the wire codec gives them, and reports tampering once", async () => {
    const key = newChannelKey();
    const [hostEnd, pluginHostEnd] = pipePair();
    const gotByPluginHost: unknown[] = [];
    const tampered: string[] = [];
    const host = new SealedChannel<unknown, unknown>(hostEnd, key, "to-plugin-host", {
      onMessage: () => undefined,
      onTampered: (error) => tampered.push(error.message),
      onClose: () => undefined,
    });
    new SealedChannel<unknown, unknown>(pluginHostEnd, key, "to-host", {
      onMessage: (message) => gotByPluginHost.push(message),
      onTampered: (error) => tampered.push(error.message),
      onClose: () => undefined,
    });
    const date = new Date(0);
    host.send({ kind: "frame", n: 1 });
    host.send({ at: date, nothing: undefined });
    await turn();
    expect(gotByPluginHost).toEqual([
      { kind: "frame", n: 1 },
      { at: date, nothing: undefined },
    ]);
    // Raw bytes at the host's end, as a plugin writing to fd 3 would put them.
    pluginHostEnd.write("garbage\n");
    pluginHostEnd.write("more garbage\n");
    await turn();
    expect(tampered).toHaveLength(1);
    expect(tampered[0]).toMatch(/channel to the app was tampered with/);
    expect(host.connected).toBe(false);
  });
});
