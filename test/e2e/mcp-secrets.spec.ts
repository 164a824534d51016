/**
 * Settings → MCP's secrets and a tool's progress, in Chromium against the real host and
 * `@modelcontextprotocol/server-everything`: a secret variable typed in Edit is kept in the
 * keychain and shown only by its last 4 characters (never in config.yaml or the page); Remove
 * deletes the server; a long-running tool shows its progress on its card.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { expect, test, uniqueSuffix } from "./fixtures/app-test.js";
import { replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";
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

test("a secret variable shows only its last 4 characters and stays out of config.yaml; Remove deletes the server", async ({
  page,
  hermes,
}) => {
  const canary = `canary-${uniqueSuffix(12)}`;
  await page.goto(hermes.launchUrl);
  await openMcpSettings(page);
  const row = mcpRow(page, "everything");
  await expect(row.getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });

  await row.getByRole("button", { name: "Edit everything" }).click();
  let dialog = page.getByRole("dialog", { name: "Edit everything" });
  await dialog.getByRole("button", { name: "Add secret variable" }).click();
  await dialog.getByLabel("Name of secret variable 1").fill("API_TOKEN");
  const value = dialog.getByLabel("Value of API_TOKEN");
  await expect(value).toHaveAttribute("type", "password");
  await value.fill(canary);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });

  await row.getByRole("button", { name: "Edit everything" }).click();
  dialog = page.getByRole("dialog", { name: "Edit everything" });
  await expect(dialog.getByText(`••••${canary.slice(-4)}`)).toBeVisible();
  await expect(dialog.getByLabel("Value of API_TOKEN")).toHaveValue("");
  await expect(dialog.getByLabel("Value of API_TOKEN")).toHaveAttribute(
    "placeholder",
    new RegExp(canary.slice(-4)),
  );
  expect(await page.content()).not.toContain(canary);
  const config = (await hermes.readConfig()) ?? "";
  expect(config).toContain("API_TOKEN");
  expect(config).not.toContain(canary);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await row.getByRole("button", { name: "Remove everything" }).click();
  const confirm = page.getByRole("dialog", { name: "Remove everything?" });
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText("No MCP servers yet")).toBeVisible();
  expect((await hermes.readConfig()) ?? "").not.toContain("everything:");
});

test("a long-running tool shows its progress on its card, then its result", async ({ page, hermes }) => {
  const provider = await startToolQuotingProvider();
  try {
    await setUpChat(hermes, provider);
    await page.goto(hermes.launchUrl);
    await openMcpSettings(page);
    await expect(mcpRow(page, "everything").getByText("Ready", { exact: true })).toBeVisible({
      timeout: 30_000,
    });
    await openChatFromSidebar(page);
    provider.enqueue({
      kind: "tool_calls",
      toolCalls: [
        { name: "mcp__everything__trigger_long_running_operation", arguments: { duration: 4, steps: 4 } },
      ],
    });
    await sendMessage(page, "Run the long one.");
    const progress = page.getByTestId("mcp-progress");
    await expect(progress).toContainText(/\d+%/);
    await expect(progress.getByRole("progressbar", { name: "Tool progress" })).toBeVisible();
    await expect(replies(page).last()).toContainText("Tool said:");
    await expect(progress).toHaveCount(0);
    await expect(page.locator(".tool-call-outcome")).toHaveText("Done");
  } finally {
    await provider.close();
  }
});
