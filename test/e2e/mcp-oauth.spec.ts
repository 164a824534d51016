/**
 * OAuth sign-in from Settings → MCP, in Chromium against the real host (web mode: the sign-in
 * page is a link the person opens; the test plays that browser tab by fetching it): a URL server
 * added with "Sign in with OAuth" shows Needs sign-in; Sign in shows the link; once the
 * authorization server redirects back the row says Signed in and the server is ready with its
 * tool; a refused consent shows its reason with Sign in again; Sign out returns to Needs sign-in.
 */
import { expect, test } from "./fixtures/app-test.js";
import { playBrowser, startOAuthFixture, type OAuthFixture } from "../host/mcp/support/oauth-fixture.js";
import { mcpRow, openMcpSettings } from "./mcp-ui.js";

test("signs in to an OAuth MCP server, shows a refused sign-in's reason, and signs out", async ({
  page,
  hermes,
}) => {
  let fixture: OAuthFixture | null = null;
  try {
    fixture = await startOAuthFixture();
    await page.goto(hermes.launchUrl);
    await openMcpSettings(page);
    await page.getByRole("button", { name: "Add server" }).click();
    const dialog = page.getByRole("dialog", { name: "Add MCP server" });
    await dialog.getByLabel("Server ID").fill("remote");
    await dialog.getByLabel("A URL (HTTP)").check();
    await dialog.getByLabel("URL", { exact: true }).fill(fixture.mcpUrl);
    await dialog.getByLabel("Sign in with OAuth (opens your browser)").check();
    await dialog.getByRole("button", { name: "Add server" }).click();
    await expect(dialog).toHaveCount(0);

    const row = mcpRow(page, "remote");
    const oauth = row.getByTestId("mcp-oauth");
    await expect(oauth).toContainText("Needs sign-in", { timeout: 30_000 });
    // The state comes from the stored tokens at once; the 401 only after the connect's round trips
    // (discovery included), which a loaded CI machine can take well past the default 10 s for.
    await expect(row.getByTestId("mcp-error")).toContainText(`HTTP 401 from ${fixture.mcpUrl}: sign in`, {
      timeout: 30_000,
    });

    // A refused consent: the reason on the row, and a way to try again.
    await fixture.control({ consent: "deny" });
    await row.getByRole("button", { name: "Sign in to remote" }).click();
    const link = oauth.getByRole("link", { name: "Open the sign-in page" });
    await expect(link).toBeVisible();
    await playBrowser((await link.getAttribute("href"))!);
    await expect(oauth.getByTestId("mcp-oauth-error")).toHaveText(
      "the authorization server refused the sign-in (access_denied: The person declined to share their account)",
    );

    await fixture.control({ consent: "allow" });
    await row.getByRole("button", { name: "Sign in again to remote" }).click();
    await expect(link).toBeVisible();
    const answer = await playBrowser((await link.getAttribute("href"))!);
    expect(answer.text).toContain("Signed in to the MCP server “remote”");
    await expect(oauth).toContainText("Signed in");
    await expect(row.getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(row).toContainText("1 tool");
    const { issued } = await fixture.stats();
    const pageText = await page.content();
    const config = (await hermes.readConfig()) ?? "";
    for (const token of issued) {
      expect(pageText).not.toContain(token);
      expect(config).not.toContain(token);
    }

    await row.getByRole("button", { name: "Sign out of remote" }).click();
    await expect(oauth).toContainText("Needs sign-in", { timeout: 30_000 });
    await expect(row.getByRole("button", { name: "Sign in to remote" })).toBeVisible();
  } finally {
    await fixture?.stop();
  }
});
