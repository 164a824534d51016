/**
 * A config.yaml that does not parse (docs/contract.md §2): the host moves it aside to config.yaml.corrupt-*,
 * starts on defaults, and the UI tells the user which file went where.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "./fixtures/app-test.js";

const unparseable = "model:\n  provider: openrouter\n  model: [unclosed\nproviders: {\n";

test.use({ initialConfigYaml: unparseable });

test("an unparseable config.yaml is moved aside and the user is told where it went", async ({
  page,
  hermes,
}) => {
  // The host starts on the page's first connection, or on its own shortly after launch (no page here).
  const corruptCopies = async () =>
    (await readdir(hermes.home)).filter((file) => file.startsWith("config.yaml.corrupt-"));
  await expect.poll(corruptCopies).toHaveLength(1);
  const movedAside = await corruptCopies();
  const movedName = movedAside[0] ?? "";
  expect(await readFile(join(hermes.home, movedName), "utf8")).toBe(unparseable);

  await page.goto(hermes.launchUrl);
  const notice = page.getByRole("alert").filter({ hasText: "config.yaml" });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(movedName);

  // The app runs on defaults: no providers, so the first-run welcome shows.
  await expect(page.getByRole("heading", { name: "Welcome to Hermes Desktop" })).toBeVisible();

  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toHaveCount(0);
});
