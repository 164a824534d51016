/**
 * MCP's requests to the person and the composer's MCP parts, in Chromium against the real host and
 * `@modelcontextprotocol/server-everything` (stdio): an elicitation form (defaults filled; an
 * answer outside the schema shows the host's error and stays open), a sampling request approved
 * and answered on the `mcp` slot, a resource attached to a message, and a prompt with completions.
 */
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { dirname, join } from "node:path";
import { expect, test } from "./fixtures/app-test.js";
import { composer, replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";
import type { FakeProvider } from "../fixtures/fake-provider.js";
import { mcpRow, openChatFromSidebar, openMcpSettings, startToolQuotingProvider } from "./mcp-ui.js";

const require = createRequire(import.meta.url);
const everythingEntry = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);

test.use({
  initialConfigYaml: [
    "mcp_servers:",
    "  everything:",
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: [${JSON.stringify(everythingEntry)}, stdio]`,
    "    approval: never",
    "",
  ].join("\n"),
});

let provider: FakeProvider;
test.beforeEach(async () => {
  provider = await startToolQuotingProvider();
});
test.afterEach(async () => {
  await provider.close();
});

async function readyChat(page: Page): Promise<void> {
  await openMcpSettings(page);
  await expect(mcpRow(page, "everything").getByText("Ready", { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await openChatFromSidebar(page);
}

test("elicitation: a form from the schema with defaults; a refused answer stays; Submit answers", async ({
  page,
  hermes,
}) => {
  await setUpChat(hermes, provider);
  await page.goto(hermes.launchUrl);
  await readyChat(page);
  provider.enqueue({
    kind: "tool_calls",
    toolCalls: [{ name: "mcp__everything__trigger_elicitation_request", arguments: {} }],
  });
  await sendMessage(page, "Ask me things.");
  const card = page.getByRole("region", { name: /everything asks you/ });
  await expect(card).toContainText("Please provide inputs for the following fields:");
  await expect(card.getByLabel("String with default", { exact: true })).toHaveValue(
    "It was a dark and stormy night.",
  );
  await expect(card.getByLabel("Integer", { exact: true })).toHaveValue("42");
  await card.getByLabel("String (required)", { exact: true }).fill("Ada Lovelace");
  await card.getByLabel("Integer", { exact: true }).fill("500");
  await card.getByRole("button", { name: "Submit" }).click();
  await expect(card.getByRole("alert")).toContainText(/integer/i);
  await expect(card.getByLabel("String (required)", { exact: true })).toHaveValue("Ada Lovelace");

  await card.getByLabel("Integer", { exact: true }).fill("7");
  await card.getByRole("button", { name: "Submit" }).click();
  await expect(card).toHaveCount(0);
  await expect(replies(page).last()).toContainText("Name: Ada Lovelace");
  await expect(replies(page).last()).toContainText("Favorite Integer: 7");
});

test("sampling: the card shows what the server asks; Approve runs it and the tool gets the answer", async ({
  page,
  hermes,
}) => {
  await setUpChat(hermes, provider);
  await page.goto(hermes.launchUrl);
  await readyChat(page);
  provider.enqueue({
    kind: "tool_calls",
    toolCalls: [
      {
        name: "mcp__everything__trigger_sampling_request",
        arguments: { prompt: "a haiku about files", maxTokens: 50 },
      },
    ],
  });
  await sendMessage(page, "Sample something.");
  const card = page.getByRole("region", { name: /everything asks for a completion/ });
  await expect(card.getByLabel("System prompt")).toHaveText("You are a helpful test server.");
  await expect(card.getByRole("list", { name: "Messages" })).toContainText("a haiku about files");
  await expect(card).toContainText("up to 50 tokens");
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(card).toHaveCount(0);
  await expect(replies(page).last()).toContainText("LLM sampling result");
  await expect(replies(page).last()).toContainText(
    "Echo: Resource trigger-sampling-request context: a haiku about files",
  );
});

test("a resource goes with the message, and a prompt's arguments offer the server's completions", async ({
  page,
  hermes,
}) => {
  await setUpChat(hermes, provider);
  await page.goto(hermes.launchUrl);
  await readyChat(page);

  await page.getByRole("button", { name: "Attach MCP resource" }).click();
  const dialog = page.getByRole("dialog", { name: "Attach a resource" });
  const list = dialog.getByRole("list", { name: "Resources of everything" });
  await list.getByRole("button").first().click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Attached resources" })).toContainText("everything:");
  await sendMessage(page, "What is in it?");
  await expect(replies(page).last()).toContainText(
    '<resource server="everything" uri="demo://resource/static/document/',
  );

  const box = composer(page);
  await box.fill("/everything:completable");
  await box.press("Enter");
  const form = page.getByRole("dialog", { name: "/everything:completable-prompt" });
  await form.getByLabel("department (required)").fill("Eng");
  await expect(form.getByTestId("suggestions-department").locator("option")).toHaveAttribute(
    "value",
    "Engineering",
  );
  await form.getByLabel("department (required)").fill("Engineering");
  await form.getByLabel("name (required)").fill("Al");
  await expect(form.getByTestId("suggestions-name").locator("option")).toHaveAttribute("value", "Alice");
  await form.getByLabel("name (required)").fill("Alice");
  await form.getByRole("button", { name: "Insert" }).click();
  await expect(box).toHaveValue("Please promote Alice to the head of the Engineering team.");
  await expect(box).toBeFocused();
});
