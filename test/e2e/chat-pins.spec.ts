/** Pinned chats: Pin chat keeps a chat at the top of the sidebar, across a reload; Unpin chat puts it back. */
import { expect, test, uniqueSuffix } from "./fixtures/app-test.js";
import { chatList, chatRow, setUpChat } from "./fixtures/chat-ui.js";

test("Pin chat keeps a chat at the top; Unpin chat puts it back", async ({ page, hermes, fakeProvider }) => {
  const { rpc } = await setUpChat(hermes, fakeProvider);
  const suffix = uniqueSuffix(4);
  const titles = ["Oldest", "Middle", "Newest"].map((t) => `${t} ${suffix}`);
  for (const title of titles) await rpc.call("session.create", { title });
  await page.goto(hermes.launchUrl);
  const order = () => chatList(page).getByRole("listitem").locator(".session-title").allInnerTexts();
  await expect.poll(order).toEqual([...titles].reverse());

  await chatRow(page, titles[0]!).getByRole("button", { name: "Pin chat" }).click();
  await expect.poll(order).toEqual([titles[0], titles[2], titles[1]]);
  await expect(chatRow(page, titles[0]!)).toHaveAttribute("data-pinned", "true");

  await page.reload();
  await expect.poll(order).toEqual([titles[0], titles[2], titles[1]]);

  await chatRow(page, titles[0]!).getByRole("button", { name: "Unpin chat" }).click();
  await expect.poll(order).toEqual([...titles].reverse());
  await expect(chatRow(page, titles[0]!).getByRole("button", { name: "Pin chat" })).toBeVisible();
});
