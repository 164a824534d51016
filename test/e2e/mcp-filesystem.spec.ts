/**
 * MCP end to end in Chromium against the real web host (docs/contract.md §13): a person adds the
 * filesystem server (`@modelcontextprotocol/server-filesystem`, rooted in a temp folder) from
 * Settings → MCP; the model (the fake provider) calls `mcp__files__read_text_file`; the chat asks
 * for approval with the tool's card "Waiting for approval"; Allow once runs it and the reply
 * quotes the file; Deny gives the model the denial and the file stays unread.
 */
import { rm } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, test, uniqueSuffix } from "./fixtures/app-test.js";
import { replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";
import type { FakeProvider } from "../fixtures/fake-provider.js";
import {
  addStdioServer,
  filesystemServerEntry,
  mcpRow,
  notesFolder,
  openChatFromSidebar,
  openMcpSettings,
  startToolQuotingProvider,
  worstContrast,
} from "./mcp-ui.js";

let provider: FakeProvider;
const folders: string[] = [];
test.beforeEach(async () => {
  provider = await startToolQuotingProvider();
});
test.afterEach(async () => {
  await provider.close();
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Adds `files` from Settings → MCP and waits for it to be ready with its tools. */
async function addFilesServer(page: Page, dir: string): Promise<void> {
  await openMcpSettings(page);
  await addStdioServer(page, { id: "files", command: process.execPath, args: [filesystemServerEntry, dir] });
  const row = mcpRow(page, "files");
  await expect(row.getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText(/\d+ tools/);
  await row.getByText(/^Tools \(/).click();
  await expect(row.getByRole("switch", { name: "Use read_text_file" })).toBeChecked();
}

test("adds the filesystem server; the chat asks first, Allow once reads the file into the reply", async ({
  page,
  hermes,
}) => {
  const secret = `papaya-${uniqueSuffix()}`;
  const { dir, file } = await notesFolder(`The secret word is ${secret}.`);
  folders.push(dir);
  await setUpChat(hermes, provider);
  await page.goto(hermes.launchUrl);
  await addFilesServer(page, dir);

  provider.enqueue({
    kind: "tool_calls",
    toolCalls: [{ id: "call_read_1", name: "mcp__files__read_text_file", arguments: { path: file } }],
  });
  await openChatFromSidebar(page);
  await sendMessage(page, "What does my note say?");

  const card = page.getByRole("region", { name: /files wants to run read_text_file/ });
  await expect(card).toBeVisible();
  await expect(card.getByLabel("Arguments")).toContainText(file);
  await expect(page.locator(".tool-call-outcome")).toHaveText("Waiting for approval");
  const worst = await worstContrast(page, ".mcp-requests *");
  expect(worst.ratio, worst.text).toBeGreaterThanOrEqual(4.5);
  await card.getByRole("button", { name: "Allow once" }).click();

  await expect(card).toHaveCount(0);
  await expect(replies(page).last()).toContainText(`Tool said: The secret word is ${secret}.`);
  await expect(page.locator(".tool-call-outcome")).toHaveText("Done");
});

test("Deny: the model is told the user denied the call and the file is not read", async ({
  page,
  hermes,
}) => {
  const secret = `kiwi-${uniqueSuffix()}`;
  const { dir, file } = await notesFolder(`The secret word is ${secret}.`);
  folders.push(dir);
  await setUpChat(hermes, provider);
  await page.goto(hermes.launchUrl);
  await addFilesServer(page, dir);

  provider.enqueue({
    kind: "tool_calls",
    toolCalls: [{ id: "call_read_2", name: "mcp__files__read_text_file", arguments: { path: file } }],
  });
  await openChatFromSidebar(page);
  await sendMessage(page, "Read my note.");
  const card = page.getByRole("region", { name: /files wants to run read_text_file/ });
  await card.getByRole("button", { name: "Deny" }).click();

  await expect(card).toHaveCount(0);
  await expect(replies(page).last()).toContainText("Tool said: The user denied this tool call.");
  await expect(page.locator(".tool-call-outcome")).toHaveText("Denied");
  expect(JSON.stringify(provider.requests.map((r) => r.body))).not.toContain(secret);
});

test("Stop while the chat waits for approval closes the card and ends the turn", async ({ page, hermes }) => {
  const { dir, file } = await notesFolder("never read");
  folders.push(dir);
  await setUpChat(hermes, provider);
  await page.goto(hermes.launchUrl);
  await addFilesServer(page, dir);
  provider.enqueue({
    kind: "tool_calls",
    toolCalls: [{ id: "call_read_3", name: "mcp__files__read_text_file", arguments: { path: file } }],
  });
  await openChatFromSidebar(page);
  await sendMessage(page, "Read it.");
  const card = page.getByRole("region", { name: /files wants to run read_text_file/ });
  await expect(card).toBeVisible();
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(card).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(page.locator(".tool-call-outcome")).toHaveText("Cancelled");
});

test("Always allow: the next call runs without asking, and Settings → MCP shows the tool as Always allow", async ({
  page,
  hermes,
}) => {
  const { dir, file } = await notesFolder("first and second");
  folders.push(dir);
  await setUpChat(hermes, provider);
  await page.goto(hermes.launchUrl);
  await addFilesServer(page, dir);
  const call = (id: string) => ({
    kind: "tool_calls" as const,
    toolCalls: [{ id, name: "mcp__files__read_text_file", arguments: { path: file } }],
  });
  provider.enqueue(call("call_always_1"));
  await openChatFromSidebar(page);
  await sendMessage(page, "Read it once.");
  const card = page.getByRole("region", { name: /files wants to run read_text_file/ });
  await card.getByRole("button", { name: "Always allow" }).click();
  await expect(replies(page).last()).toContainText("Tool said: first and second");

  provider.enqueue(call("call_always_2"));
  await sendMessage(page, "Read it again.");
  // Each turn: the reply calling the tool, then the one quoting it.
  await expect(replies(page)).toHaveCount(4);
  await expect(replies(page).last()).toContainText("Tool said: first and second");
  await expect(card).toHaveCount(0);

  await openMcpSettings(page);
  const row = mcpRow(page, "files");
  await row.getByText(/^Tools \(/).click();
  await expect(row.getByLabel("Approval for read_text_file")).toHaveValue("allow");
  expect(await hermes.readConfig()).toContain("read_text_file");
});
