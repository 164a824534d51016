/**
 * Tells web mode when the page has been sent everything its first paint needs: the shell
 * (index.html) and the scripts, module preloads and style sheets it names — not its icon, which
 * the browser fetches after the load. From then on the server has nothing to do for the first
 * paint while the browser runs the page's script on one core, so the host's start-up can take
 * the other one, instead of starting after the paint and competing with the page's first moments.
 */
import { join, normalize, sep } from "node:path";

/** A tag's attributes (`name="value"`, lower-cased names). */
function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of tag.matchAll(/([a-zA-Z-]+)\s*=\s*"([^"]*)"/g)) {
    attributes.set(match[1]!.toLowerCase(), match[2]!);
  }
  return attributes;
}

/** Link relations whose file the first paint waits for. */
const blockingRels = new Set(["stylesheet", "modulepreload"]);

/**
 * The files of `root` the shell's first paint waits for: each `<script src>`, and each
 * `<link rel="stylesheet|modulepreload" href>`, named relative to the shell (`./…`).
 */
export function blockingFilesOf(shell: string, root: string): string[] {
  const paths: string[] = [];
  for (const match of shell.matchAll(/<(script|link)\b[^>]*>/gi)) {
    const attributes = attributesOf(match[0]);
    const isScript = match[1]!.toLowerCase() === "script";
    const rels = (attributes.get("rel") ?? "").toLowerCase().split(/\s+/);
    const path = isScript
      ? attributes.get("src")
      : rels.some((rel) => blockingRels.has(rel))
        ? attributes.get("href")
        : undefined;
    if (path?.startsWith("./")) paths.push(path.slice(2).split(/[?#]/)[0]!);
  }
  const inside = root.endsWith(sep) ? root : root + sep;
  return paths.map((path) => normalize(join(root, path))).filter((file) => file.startsWith(inside));
}

export interface ShellServedWatch {
  /** What the page's first paint waits for (the shell itself included), once it is known. */
  expect(files: readonly string[]): void;
  /** A file was sent in full. */
  served(file: string): void;
}

/** Calls `onServed` once, when every expected file has been sent (in any order). */
export function watchShellServed(onServed: () => void): ShellServedWatch {
  const sent = new Set<string>();
  let expected: readonly string[] | null = null;
  let done = false;
  const check = () => {
    if (done || expected === null || !expected.every((file) => sent.has(file))) return;
    done = true;
    onServed();
  };
  return {
    expect(files) {
      if (expected !== null) return;
      expected = [...files];
      check();
    },
    served(file) {
      if (done) return;
      sent.add(file);
      check();
    },
  };
}
