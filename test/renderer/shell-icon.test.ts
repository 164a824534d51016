/**
 * The page's icon is a PNG: Chromium draws an SVG favicon by building a document for it on the
 * page's main thread right after the first paint; a PNG is only decoded. favicon.svg stays the
 * source (scripts/render-favicon.mjs renders it).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const rendererDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "renderer");
const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("the shell's icon", () => {
  it("links one icon, a PNG that is there", () => {
    const shell = readFileSync(join(rendererDir, "index.html"), "utf8");
    const icons = [...shell.matchAll(/<link rel="icon"[^>]*>/g)].map((match) => match[0]);
    expect(icons).toHaveLength(1);
    expect(icons[0]).toContain('type="image/png"');
    const href = /href="\.\/([^"]+)"/.exec(icons[0]!)?.[1];
    expect(href).toBe("favicon.png");
    const file = join(rendererDir, "public", href!);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file).subarray(0, 8).equals(pngSignature)).toBe(true);
  });
});
