/**
 * The app's place survives a reload (renderer/src/stores/route-sync.ts): the address's fragment
 * follows the person from a chat to a Settings page to a plugin page, and a reload opens each
 * again. The desktop shell reopens its window at the same route after a restart
 * (electron/window-state.ts, test/host/shell/window-state.test.ts).
 */
import { expect, test } from "./fixtures/app-test.js";
import { replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

test("a reload opens the chat, the Settings page or the plugin page that was open", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await setUpChat(hermes, fakeProvider, { plugins: ["chart-writer"] });
  fakeProvider.enqueue("Here is a reply.", "Route chat");
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Remember where I was");
  await expect(replies(page).last()).toContainText("Here is a reply.");
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/chat\/[^/]+$/);
  const chatRoute = new URL(page.url()).hash;
  // The launch token is gone from the address; only the route is there.
  expect(new URL(page.url()).search).toBe("");

  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Settings" }).click();
  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("button", { name: "Appearance" })
    .click();
  await expect.poll(() => new URL(page.url()).hash).toBe("#/settings/appearance");
  await page.reload();
  await expect(page.getByRole("group", { name: "Theme" })).toBeVisible();

  await page
    .getByRole("navigation", { name: "Plugin pages" })
    .getByRole("button", { name: "Charts" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Charts" })).toBeVisible();
  await expect.poll(() => new URL(page.url()).hash).toBe("#/plugin/chart-writer/charts");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Charts" })).toBeVisible();
  await expect(
    page.frameLocator('iframe[title="chart-writer: Charts"]').getByRole("button", { name: "Suggest chart" }),
  ).toBeVisible();

  // Back at the chat: the same chat, also after a reload.
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Chat" }).click();
  await expect.poll(() => new URL(page.url()).hash).toBe(chatRoute);
  await page.reload();
  await expect(replies(page).last()).toContainText("Here is a reply.");
  expect(new URL(page.url()).hash).toBe(chatRoute);
});
