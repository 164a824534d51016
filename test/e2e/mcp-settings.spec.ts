/**
 * Settings → MCP in Chromium against the real web host: importing Claude Desktop's JSON adds the
 * good entries and lists the skipped ones with their reasons; a server whose command does not
 * exist shows its error on the screen; a block the host refuses names the key next to its field.
 */
import { rm } from "node:fs/promises";
import { expect, test, uniqueSuffix } from "./fixtures/app-test.js";
import { filesystemServerEntry, mcpRow, notesFolder, openMcpSettings, worstContrast } from "./mcp-ui.js";

test("imports Claude Desktop JSON: added servers start, skipped ones say why", async ({ page, hermes }) => {
  const { dir } = await notesFolder("hello");
  try {
    await page.goto(hermes.launchUrl);
    await openMcpSettings(page);
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Import MCP servers" });
    const json = JSON.stringify({
      mcpServers: {
        files: { command: process.execPath, args: [filesystemServerEntry, dir] },
        both: { command: "node", url: "https://example.com/mcp" },
      },
    });
    await dialog.getByLabel("Claude Desktop JSON").fill(json);
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await expect(dialog.getByRole("list", { name: "Added" })).toContainText("files");
    await expect(dialog.getByRole("list", { name: "Skipped" })).toContainText("both");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(mcpRow(page, "files").getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
    expect(await hermes.readConfig()).toContain("files:");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a server whose command does not exist shows its error in its row", async ({ page, hermes }) => {
  const missing = `hermes-no-such-command-${uniqueSuffix()}`;
  await page.goto(hermes.launchUrl);
  await openMcpSettings(page);
  await page.getByRole("button", { name: "Add server" }).click();
  const dialog = page.getByRole("dialog", { name: "Add MCP server" });
  await dialog.getByLabel("Server ID").fill("ghost");
  await dialog.getByLabel("Command", { exact: true }).fill(missing);
  await dialog.getByRole("button", { name: "Add server" }).click();
  await expect(dialog).toHaveCount(0);
  const row = mcpRow(page, "ghost");
  await expect(row.getByText("Error", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row.getByRole("alert")).toContainText(missing);
  await expect(row.getByRole("alert")).toContainText(/not found/i);
});

test("a block the host refuses shows its error next to the field, and nothing is saved", async ({
  page,
  hermes,
}) => {
  await page.goto(hermes.launchUrl);
  await openMcpSettings(page);
  await page.getByRole("button", { name: "Add server" }).click();
  const dialog = page.getByRole("dialog", { name: "Add MCP server" });
  const id = dialog.getByLabel("Server ID");
  await id.fill("my server");
  await dialog.getByLabel("Command", { exact: true }).fill("node");
  await dialog.getByRole("button", { name: "Add server" }).click();
  await expect(id).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("mcp_servers.my server is not a valid name here");

  await id.fill("web");
  await dialog.getByLabel("A URL (HTTP)").check();
  await dialog.getByLabel("URL", { exact: true }).fill("ftp://example.com/mcp");
  await dialog.getByRole("button", { name: "Add server" }).click();
  const url = dialog.getByLabel("URL", { exact: true });
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.locator(".field-error")).toContainText("url");
  // What was typed stays.
  await expect(url).toHaveValue("ftp://example.com/mcp");
  expect((await hermes.readConfig()) ?? "").not.toContain("mcp_servers");
});

for (const scheme of ["light", "dark"] as const) {
  test(`Settings → MCP's text reaches WCAG AA contrast (${scheme})`, async ({ page, hermes }) => {
    const { dir } = await notesFolder("hello");
    try {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(hermes.launchUrl);
      const rpc = await hermes.rpc();
      await rpc.call("mcp.save", {
        id: "files",
        server: { command: process.execPath, args: [filesystemServerEntry, dir] },
      });
      await rpc.call("mcp.save", {
        id: "ghost",
        server: { command: `hermes-no-such-command-${uniqueSuffix()}` },
      });
      await openMcpSettings(page);
      await expect(mcpRow(page, "files").getByText("Ready", { exact: true })).toBeVisible({
        timeout: 30_000,
      });
      await expect(mcpRow(page, "ghost").getByText("Error", { exact: true })).toBeVisible({
        timeout: 30_000,
      });
      await mcpRow(page, "files")
        .getByText(/^Tools \(/)
        .click();
      const worst = await worstContrast(page, ".settings-page *");
      expect(worst.ratio, worst.text).toBeGreaterThanOrEqual(4.5);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
