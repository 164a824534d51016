/** The sidebar collapses to a rail and expands again; under 900 px it starts collapsed. */
import { expect, test } from "./fixtures/app-test.js";
import { chatList, chatRow, setUpChat } from "./fixtures/chat-ui.js";

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

test("a long list of chats renders its first rows, more as it scrolls or as Tab reaches them", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const { rpc } = await setUpChat(hermes, fakeProvider);
  const total = 180;
  for (let i = 0; i < total; i++) await rpc.call("session.create", { title: `Long list ${i}` });
  await page.goto(hermes.launchUrl);
  const rows = chatList(page).getByRole("listitem");
  await expect(rows.first()).toBeVisible();
  const first = await rows.count();
  expect(first).toBeLessThan(total);
  // Each row says where it sits in the whole list.
  await expect(rows.first()).toHaveAttribute("aria-setsize", String(total));
  await expect(rows.first()).toHaveAttribute("aria-posinset", "1");
  // Tab along the rows: focus reaches past the first batch, never leaving the list.
  await rows.first().getByRole("button").first().focus();
  for (let i = 0; i < first * 4; i++) await page.keyboard.press("Tab");
  const focused = page.locator(":focus");
  await expect(chatList(page).locator(":focus")).toHaveCount(1);
  expect(Number(await focused.locator("xpath=ancestor::li").getAttribute("aria-posinset"))).toBeGreaterThan(
    first,
  );
  // Scrolled to its end, the list shows its last chat (the oldest).
  await page.reload();
  await expect(rows.first()).toBeVisible();
  for (let i = 0; i < 10 && (await rows.count()) < total; i++) {
    await chatList(page).evaluate((nav) => nav.scrollTo(0, nav.scrollHeight));
    await page.waitForTimeout(50);
  }
  await expect(rows).toHaveCount(total);
  await expect(chatRow(page, "Long list 0")).toBeVisible();
});
