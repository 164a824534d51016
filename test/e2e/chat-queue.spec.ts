/**
 * A message sent while a reply streams: its reply streams in live, and once it ran nothing says
 * "Queued" any more — not the message's tag, not the composer's hint, not after a reload.
 */
import { expect, test } from "./fixtures/app-test.js";
import {
  chatList,
  numberedWords,
  replies,
  sendMessage,
  setUpChat,
  userMessages,
} from "./fixtures/chat-ui.js";

for (const attempt of [1, 2]) {
  test(`a queued message's reply streams in live and the Queued marks clear (try ${attempt})`, async ({
    page,
    hermes,
    fakeProvider,
  }) => {
    await setUpChat(hermes, fakeProvider);
    fakeProvider.enqueue(
      // Each reply holds mid-stream until released, so "while it streams" never races the machine.
      { kind: "text", content: numberedWords(120, "first"), holdAfterChunks: 4 },
      { kind: "text", content: numberedWords(40, "second"), holdAfterChunks: 5 },
    );
    await page.goto(hermes.launchUrl);

    await sendMessage(page, "First question");
    await expect(replies(page).first()).toContainText("first2");
    // A chat with a title of its own asks for none, so the second scripted reply goes to the queued turn.
    const rpc = await hermes.rpc();
    const { sessions } = await rpc.call<{ sessions: { sessionId: string }[] }>("session.list");
    await rpc.call("session.rename", { sessionId: sessions[0]?.sessionId, title: "Queue test" });
    await sendMessage(page, "Second question");
    const hint = page.getByRole("status").filter({ hasText: "Queued:" });
    await expect(hint).toBeVisible();
    await expect(userMessages(page).last()).toContainText("Queued");
    fakeProvider.release();

    // Live: the second reply is seen while it is still being written, and in view.
    const second = replies(page).nth(1);
    await expect(second).toHaveAttribute("data-status", "streaming", { timeout: 20_000 });
    await expect(second).toContainText("second3");
    await expect(hint).toHaveCount(0);
    fakeProvider.release();
    await expect(second).toHaveAttribute("data-status", "complete", { timeout: 15_000 });
    await expect(second.getByText(/second40/)).toBeInViewport();

    await expect(userMessages(page).last()).not.toContainText("Queued");
    await expect(page.getByRole("status").filter({ hasText: "Queued" })).toHaveCount(0);
    await page.reload();
    await chatList(page).getByRole("button").first().click();
    await expect(userMessages(page)).toHaveCount(2);
    await expect(userMessages(page).last()).not.toContainText("Queued");
  });
}
