/** The sidebar collapses to a rail and expands again; under 900 px it starts collapsed. */
import { expect, test } from "./fixtures/app-test.js";
import { setUpChat } from "./fixtures/chat-ui.js";

test("Collapse sidebar and Expand sidebar at 1280×800", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  await page.goto(hermes.launchUrl);
  const chats = page.getByRole("region", { name: "Chats" });
  await expect(chats).toBeVisible();
  await page.getByRole("button", { name: "Collapse sidebar", exact: true }).click();
  await expect(chats).toHaveCount(0);
  // The Main navigation stays reachable by name.
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Providers", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Expand sidebar", exact: true }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Chat" }).click();
  await expect(chats).toBeVisible();
});

test.describe("at 800×600", () => {
  test.use({ viewport: { width: 800, height: 600 } });

  test("the sidebar starts collapsed and the conversation gets the room", async ({
    page,
    hermes,
    fakeProvider,
  }) => {
    await setUpChat(hermes, fakeProvider);
    await page.goto(hermes.launchUrl);
    await expect(page.getByRole("button", { name: "Expand sidebar", exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: "Chats" })).toHaveCount(0);
    // The message box with its buttons (Attach image, Send) spans most of the window.
    const box = await page.locator(".composer-inner").boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(600);
    await page.getByRole("button", { name: "Expand sidebar", exact: true }).click();
    await expect(page.getByRole("region", { name: "Chats" })).toBeVisible();
  });
});
