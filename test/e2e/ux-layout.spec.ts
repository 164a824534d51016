/**
 * Screens as a person meets them (issue 28's tour): the chat header at a narrow width, a long model
 * list inside its dialog, and a reload that reopens the chat that was open.
 */
import { expect, test } from "./fixtures/app-test.js";
import { replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

test.describe("at 560×700", () => {
  test.use({ viewport: { width: 560, height: 700 } });

  test("the chat header keeps its title readable and its tools inside the window", async ({
    page,
    hermes,
    fakeProvider,
  }) => {
    await setUpChat(hermes, fakeProvider);
    fakeProvider.enqueue("Hello there.", "A rather long title for a narrow window");
    await page.goto(hermes.launchUrl);
    await sendMessage(page, "Hi");
    await expect(replies(page).first()).toHaveAttribute("data-status", "complete");
    const header = page.locator(".chat-header");
    await expect(page.getByRole("button", { name: "Export chat" })).toBeVisible();
    const layout = await header.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const title = el.querySelector("h1")!.getBoundingClientRect();
      const tools = Array.from(el.querySelectorAll("button")).map((b) => b.getBoundingClientRect());
      return {
        overflow: el.scrollWidth - el.clientWidth,
        titleWidth: title.width,
        outside: tools.filter((t) => t.left < box.left - 0.5 || t.right > box.right + 0.5).length,
        windowWidth: window.innerWidth,
        rightmost: Math.max(...tools.map((t) => t.right)),
      };
    });
    expect(layout.overflow).toBeLessThanOrEqual(0);
    expect(layout.outside).toBe(0);
    expect(layout.rightmost).toBeLessThanOrEqual(layout.windowWidth);
    expect(layout.titleWidth).toBeGreaterThanOrEqual(120);
  });
});

test("a long model list scrolls inside its dialog", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.setModels(Array.from({ length: 80 }, (_, i) => `fake/model-${String(i).padStart(2, "0")}`));
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Hi");
  await expect(replies(page).first()).toHaveAttribute("data-status", "complete");
  await page.getByRole("button", { name: /^Model for this chat:/ }).click();
  const dialog = page.getByRole("dialog", { name: "Model for this chat" });
  await dialog.getByRole("combobox", { name: "Model", exact: true }).click();
  const list = dialog.getByRole("listbox", { name: "Models" });
  await expect(list.getByRole("option")).toHaveCount(80);
  const [dialogBox, listBox] = [await dialog.boundingBox(), await list.boundingBox()];
  expect(listBox!.y + listBox!.height).toBeLessThanOrEqual(dialogBox!.y + dialogBox!.height + 0.5);
  expect(dialogBox!.y + dialogBox!.height).toBeLessThanOrEqual(page.viewportSize()!.height);
  // The list scrolls itself: its last model is reached by scrolling it.
  const last = list.getByRole("option", { name: "fake/model-79", exact: true });
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport();
});

test("a reload reopens the chat that was open", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue("Noted.", "Shopping list");
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Remember eggs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shopping list");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shopping list");
  await expect(replies(page).first()).toContainText("Noted.");
});
