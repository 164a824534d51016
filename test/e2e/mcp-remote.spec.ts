/**
 * A URL server added from Settings → MCP, in Chromium against the real host: server-everything in
 * Streamable HTTP and in SSE mode on loopback, each added with the URL form (transport picked
 * there) and shown ready with its tools; the form's header reaches config.yaml.
 */
import { expect, test } from "./fixtures/app-test.js";
import { startEverythingHttp, type RunningServer } from "../host/mcp/support/http-servers.js";
import { mcpRow, openMcpSettings } from "./mcp-ui.js";

const modes = [
  { mode: "streamableHttp", path: "/mcp", transport: "streamable_http", label: "Streamable HTTP" },
  { mode: "sse", path: "/sse", transport: "sse", label: "SSE" },
] as const;

for (const { mode, path, transport, label } of modes) {
  test(`adds a URL server (${label}) and shows it ready with its tools`, async ({ page, hermes }) => {
    let server: RunningServer | null = null;
    try {
      server = await startEverythingHttp(mode);
      await page.goto(hermes.launchUrl);
      await openMcpSettings(page);
      await page.getByRole("button", { name: "Add server" }).click();
      const dialog = page.getByRole("dialog", { name: "Add MCP server" });
      await dialog.getByLabel("Server ID").fill("remote");
      await dialog.getByLabel("A URL (HTTP)").check();
      await dialog.getByLabel("URL", { exact: true }).fill(`http://127.0.0.1:${server.port}${path}`);
      await dialog.getByLabel("Transport").selectOption(transport);
      await dialog.getByRole("textbox", { name: "Headers", exact: true }).fill("X-Team: blue");
      await dialog.getByRole("button", { name: "Add server" }).click();
      await expect(dialog).toHaveCount(0);
      const row = mcpRow(page, "remote");
      await expect(row.getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
      await expect(row).toContainText(label);
      await expect(row).toContainText(/\d+ tools/);
      const config = (await hermes.readConfig()) ?? "";
      expect(config).toContain("X-Team: blue");
      if (transport === "sse") expect(config).toContain("transport: sse");
    } finally {
      await server?.stop();
    }
  });
}
