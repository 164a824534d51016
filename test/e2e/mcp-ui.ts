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
