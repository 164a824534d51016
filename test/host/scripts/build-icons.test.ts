/** The app icon for every target from build/icon.png (scripts/build-icons.mjs), node only. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs build script without types
import * as icons from "../../../scripts/build-icons.mjs";

interface Image {
  width: number;
  height: number;
  rgba: Buffer;
}
const { decodePng, encodePng, downscale, LINUX_SIZES, ICO_SIZES, ICNS_TYPES } = icons as {
  decodePng(file: Buffer): Image;
  encodePng(image: Image): Buffer;
  downscale(image: Image, size: number): Image;
  LINUX_SIZES: number[];
  ICO_SIZES: number[];
  ICNS_TYPES: Array<[string, number]>;
};

let out: string;
beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), "hermes-icons-"));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

const pngSize = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

describe("the icon build", () => {
  it("writes every Linux size, an .ico and an .icns from the one source", () => {
    const run = spawnSync(
      process.execPath,
      [join(process.cwd(), "scripts", "build-icons.mjs"), "--out", out],
      {
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("from build/icon.png");
    for (const size of LINUX_SIZES) {
      expect(pngSize(readFileSync(join(out, `${size}x${size}.png`)))).toEqual([size, size]);
    }
    expect(pngSize(readFileSync(join(out, "icon.png")))).toEqual([1024, 1024]);

    const ico = readFileSync(join(out, "icon.ico"));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, ICO_SIZES.length]);
    ICO_SIZES.forEach((size, i) => {
      const entry = 6 + 16 * i;
      expect(ico[entry]).toBe(size >= 256 ? 0 : size);
      const offset = ico.readUInt32LE(entry + 12);
      const png = ico.subarray(offset, offset + ico.readUInt32LE(entry + 8));
      expect(pngSize(png)).toEqual([size, size]);
    });

    const icns = readFileSync(join(out, "icon.icns"));
    expect(icns.toString("latin1", 0, 4)).toBe("icns");
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    let at = 8;
    for (const [type, size] of ICNS_TYPES) {
      expect(icns.toString("latin1", at, at + 4)).toBe(type);
      const length = icns.readUInt32BE(at + 4);
      expect(pngSize(icns.subarray(at + 8, at + length))).toEqual([size, size]);
      at += length;
    }
    expect(at).toBe(icns.length);
  });

  it("reads back what it writes, pixel for pixel", () => {
    const rgba = Buffer.from(Array.from({ length: 3 * 2 * 4 }, (_, i) => (i * 37) % 256));
    const image = { width: 3, height: 2, rgba };
    expect(decodePng(encodePng(image))).toEqual(image);
  });

  it("scales down by area average with premultiplied alpha: no dark fringe at a transparent edge", () => {
    // Left half opaque white, right half fully transparent black: one pixel of half-opaque white.
    const rgba = Buffer.alloc(2 * 2 * 4);
    for (const i of [0, 2]) rgba.set([255, 255, 255, 255], i * 4);
    for (const i of [1, 3]) rgba.set([0, 0, 0, 0], i * 4);
    expect([...downscale({ width: 2, height: 2, rgba }, 1).rgba]).toEqual([255, 255, 255, 128]);
    // A 3→2 scale weighs the middle column by halves.
    const row = Buffer.from([0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255]);
    const square = Buffer.concat([row, row, row]);
    const scaled = downscale({ width: 3, height: 3, rgba: square }, 2).rgba;
    expect([scaled[0], scaled[4]]).toEqual([30, 150]);
  });

  it("refuses a source that is not a 1024-pixel square PNG, saying what it must be", () => {
    expect(() => decodePng(Buffer.from("not a png"))).toThrow("not a PNG file");
    expect(() => downscale({ width: 4, height: 2, rgba: Buffer.alloc(32) }, 1)).toThrow("must be square");
  });
});
