/**
 * Shared by the MCP specs: Settings → MCP by its accessible names, the filesystem server's entry
 * point (a devDependency, run with this very node), and a fake provider whose reply quotes the
 * last tool result it was sent, so a reply "uses the file's text" only when the tool really ran.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import { startFakeProvider, type FakeProvider } from "../fixtures/fake-provider.js";
import { messageText } from "../fixtures/fake-provider-replies.js";

const require = createRequire(import.meta.url);

/** `node_modules/@modelcontextprotocol/server-filesystem/dist/index.js` */
export const filesystemServerEntry = join(
  dirname(require.resolve("@modelcontextprotocol/server-filesystem/package.json")),
  "dist",
  "index.js",
);

/** A temp folder holding `notes.txt` with `text`; the server is rooted there. */
export async function notesFolder(text: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), "hermes-e2e-mcp-"));
  const file = join(dir, "notes.txt");
  await writeFile(file, text);
  return { dir, file };
}

/** A fake provider whose unscripted reply is `Tool said: <the last tool message's text>` (or the echo). */
export function startToolQuotingProvider(): Promise<FakeProvider> {
  return startFakeProvider({
    defaultReply: (view) => {
      const lastTool = [...view.body.messages]
        .reverse()
        .find((m) => (m as { role?: unknown }).role === "tool");
      return {
        kind: "text",
        content: lastTool ? `Tool said: ${messageText(lastTool)}` : `Echo: ${view.lastUserText}`,
      };
    },
  });
}

export async function openMcpSettings(page: Page): Promise<void> {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Settings", exact: true })
    .click();
  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("button", { name: "MCP", exact: true })
    .click();
  await expect(page.getByRole("heading", { name: "MCP", exact: true })).toBeVisible();
}

export const mcpRow = (page: Page, id: string): Locator => page.locator(`[data-mcp-server="${id}"]`);

/** Fills the Add MCP server dialog for a stdio server and saves it. */
export async function addStdioServer(
  page: Page,
  server: { id: string; command: string; args: string[] },
): Promise<void> {
  const add = page.getByRole("button", { name: "Add server" });
  await add.click();
  const dialog = page.getByRole("dialog", { name: "Add MCP server" });
  await dialog.getByLabel("Server ID").fill(server.id);
  await dialog.getByLabel("Command", { exact: true }).fill(server.command);
  await dialog.getByLabel("Arguments").fill(server.args.join("\n"));
  await dialog.getByRole("button", { name: "Add server" }).click();
  await expect(dialog).toHaveCount(0);
  // Focus went back to the button that opened the dialog.
  await expect(add).toBeFocused();
}

export async function openChatFromSidebar(page: Page): Promise<void> {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Chat", exact: true })
    .click();
}

/**
 * The lowest WCAG contrast ratio of the text directly inside `selector`'s elements on the page:
 * each text colour against its background, composited up the ancestors (alpha backgrounds over
 * what is behind them). Returns the worst element with its ratio, to name it when it fails.
 */
export async function worstContrast(page: Page, selector: string): Promise<{ ratio: number; text: string }> {
  return page.evaluate((sel) => {
    type Rgba = [number, number, number, number];
    const parse = (color: string): Rgba => {
      const probe = document.createElement("canvas").getContext("2d");
      if (!probe) throw new Error("no canvas");
      probe.fillStyle = "#000";
      probe.fillStyle = color;
      probe.clearRect(0, 0, 1, 1);
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
      return [r ?? 0, g ?? 0, b ?? 0, (a ?? 255) / 255];
    };
    const over = (top: Rgba, under: Rgba): Rgba => {
      const a = top[3] + under[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: 0 | 1 | 2) => (top[i] * top[3] + under[i] * under[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const background = (element: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let at: Element | null = element; at; at = at.parentElement)
        layers.push(parse(getComputedStyle(at).backgroundColor));
      return layers.reduceRight<Rgba>((under, top) => over(top, under), [255, 255, 255, 1]);
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    let worst = { ratio: Infinity, text: "" };
    for (const element of Array.from(document.querySelectorAll(sel))) {
      const own = Array.from(element.childNodes).some(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
      );
      if (!own || !(element as HTMLElement).offsetParent) continue;
      const bg = background(element);
      const fg = over(parse(getComputedStyle(element).color), bg);
      const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x) as [number, number];
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < worst.ratio)
        worst = { ratio, text: `${element.className}: ${element.textContent?.trim().slice(0, 40)}` };
    }
    return worst;
  }, selector);
}
