#!/usr/bin/env node
// The app icon for every target, made at build time from one source image, build/icon.png
// (1024×1024 RGBA, drawn from renderer/public/favicon.svg): build/icons/<n>x<n>.png for Linux,
// icon.png (1024) for electron-builder's default, icon.ico for Windows, icon.icns for macOS.
// Node only: a PNG reader and writer on zlib, an area-average downscale, the ICO and ICNS
// containers (both hold PNG data as is). `--out DIR` writes elsewhere (the tests).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { crc32, deflateSync, inflateSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS types holding PNG data, by pixel size (the @2x ones reuse the larger pixel sizes). */
export const ICNS_TYPES = [
  ["icp4", 16],
  ["icp5", 32],
  ["ic11", 32],
  ["icp6", 64],
  ["ic12", 64],
  ["ic07", 128],
  ["ic08", 256],
  ["ic13", 256],
  ["ic09", 512],
  ["ic14", 512],
  ["ic10", 1024],
];

/** An 8-bit RGBA or RGB, non-interlaced PNG as `{width, height, rgba}`; anything else is refused. */
export function decodePng(file) {
  if (!file.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG file");
  let offset = 8;
  let header = null;
  const data = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString("latin1", offset + 4, offset + 8);
    const body = file.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8],
        colour: body[9],
        interlace: body[12],
      };
    } else if (type === "IDAT") data.push(body);
    else if (type === "IEND") break;
    offset += 12 + length;
  }
  if (!header) throw new Error("a PNG without IHDR");
  const channels = { 6: 4, 2: 3 }[header.colour];
  if (header.depth !== 8 || !channels || header.interlace !== 0) {
    throw new Error("the icon source must be an 8-bit RGBA or RGB PNG, not interlaced");
  }
  const { width, height } = header;
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      if (predictor === undefined) throw new Error(`unknown PNG filter ${filter}`);
      pixels[y * stride + x] = (line[x] + predictor) & 0xff;
    }
  }
  if (channels === 4) return { width, height, rgba: pixels };
  const rgba = Buffer.alloc(width * height * 4, 0xff);
  for (let i = 0; i < width * height; i++) pixels.copy(rgba, i * 4, i * 3, i * 3 + 3);
  return { width, height, rgba };
}

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function encodePng({ width, height, rgba }) {
  const raw = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++)
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type, body) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

/** Area-average downscale of a square image, in premultiplied alpha so edges keep no dark fringe. */
export function downscale(image, size) {
  if (image.width !== image.height) throw new Error("the icon source must be square");
  if (size > image.width) throw new Error(`cannot make ${size}px from a ${image.width}px source`);
  const scale = image.width / size;
  const out = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let weight = 0;
      for (let sy = Math.floor(y * scale); sy < Math.ceil((y + 1) * scale); sy++) {
        const wy = Math.min(sy + 1, (y + 1) * scale) - Math.max(sy, y * scale);
        for (let sx = Math.floor(x * scale); sx < Math.ceil((x + 1) * scale); sx++) {
          const w = wy * (Math.min(sx + 1, (x + 1) * scale) - Math.max(sx, x * scale));
          const i = (sy * image.width + sx) * 4;
          const alpha = image.rgba[i + 3] / 255;
          r += image.rgba[i] * alpha * w;
          g += image.rgba[i + 1] * alpha * w;
          b += image.rgba[i + 2] * alpha * w;
          a += alpha * w;
          weight += w;
        }
      }
      const o = (y * size + x) * 4;
      out[o + 3] = Math.round((a / weight) * 255);
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
    }
  }
  return { width: size, height: size, rgba: out };
}

/** A Windows .ico whose entries are PNGs (Windows Vista and later read them). */
export function buildIco(pngsBySize) {
  const entries = [...pngsBySize];
  const header = Buffer.alloc(6 + 16 * entries.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(entries.length, 4);
  let offset = header.length;
  entries.forEach(([size, png], i) => {
    const at = 6 + 16 * i;
    header[at] = size >= 256 ? 0 : size;
    header[at + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, at + 4);
    header.writeUInt16LE(32, at + 6);
    header.writeUInt32LE(png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...entries.map(([, png]) => png)]);
}

/** A macOS .icns: the 'icns' header, then one PNG element per type. */
export function buildIcns(pngForSize) {
  const elements = ICNS_TYPES.map(([type, size]) => {
    const png = pngForSize(size);
    const head = Buffer.alloc(8);
    head.write(type, 0, "latin1");
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write("icns", 0, "latin1");
  head.writeUInt32BE(8 + elements.reduce((sum, e) => sum + e.length, 0), 4);
  return Buffer.concat([head, ...elements]);
}

export function buildIcons(sourcePath, outDir) {
  const source = decodePng(readFileSync(sourcePath));
  if (source.width !== 1024 || source.height !== 1024) {
    throw new Error(`${sourcePath} is ${source.width}×${source.height}: the icon source must be 1024×1024`);
  }
  const pngs = new Map(
    LINUX_SIZES.map((size) => [size, encodePng(size === 1024 ? source : downscale(source, size))]),
  );
  mkdirSync(outDir, { recursive: true });
  for (const [size, png] of pngs) writeFileSync(join(outDir, `${size}x${size}.png`), png);
  writeFileSync(join(outDir, "icon.png"), pngs.get(1024));
  writeFileSync(join(outDir, "icon.ico"), buildIco(ICO_SIZES.map((size) => [size, pngs.get(size)])));
  writeFileSync(
    join(outDir, "icon.icns"),
    buildIcns((size) => pngs.get(size)),
  );
  return { sizes: LINUX_SIZES, outDir };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const at = process.argv.indexOf("--out");
  const outDir = at > 0 ? resolve(process.argv[at + 1]) : join(root, "build", "icons");
  try {
    buildIcons(join(root, "build", "icon.png"), outDir);
  } catch (err) {
    console.error(`Icons: ${err.message}`);
    process.exit(1);
  }
  console.log(
    `Icons: ${LINUX_SIZES.join(", ")} px PNGs, icon.ico and icon.icns in ${outDir}, from build/icon.png.`,
  );
}
