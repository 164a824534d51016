/**
 * A chat's own model and system prompt, set from its header: the switch is recorded in the
 * transcript and used from the next reply on; the main model in Settings is untouched.
 */
import { expect, test, uniqueSuffix } from "./fixtures/app-test.js";
import { chatList, replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

test("Model for this chat switches the model, System prompt sets the chat's instructions", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const { rpc } = await setUpChat(hermes, fakeProvider);
  const alt = { id: `alt-${uniqueSuffix()}`, name: `Alt ${uniqueSuffix()}`, base_url: fakeProvider.baseURL };
  await rpc.call("providers.save", alt);
  await rpc.call("settings.set", { key: "memory.note", value: "The user likes tea." });
  await page.goto(hermes.launchUrl);

  await sendMessage(page, "First");
  await expect(replies(page)).toHaveCount(1);
  await expect(replies(page).first()).toHaveAttribute("data-status", "complete");

  const picker = page.getByRole("button", { name: /^Model for this chat: / });
  await expect(picker).toContainText("fake/chat-small");
  await picker.click();
  const dialog = page.getByRole("dialog", { name: "Model for this chat" });
  await dialog.getByLabel("Provider", { exact: true }).selectOption({ label: alt.name });
  await dialog.getByRole("combobox", { name: "Model", exact: true }).fill("fake/other-model");
  await dialog.getByRole("button", { name: "Switch model", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(picker).toContainText(`${alt.name} · fake/other-model`);
  await expect(page.getByRole("log", { name: "Conversation" })).toContainText(
    `Model for this chat: fake/other-model (${alt.name})`,
  );

  await page.getByRole("button", { name: "System prompt", exact: true }).click();
  const promptDialog = page.getByRole("dialog", { name: "System prompt" });
  await promptDialog
    .getByRole("textbox", { name: "System prompt", exact: true })
    .fill("Answer like a pirate.");
  await promptDialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(promptDialog).toBeHidden();

  await sendMessage(page, "Second");
  await expect(replies(page)).toHaveCount(2);
  await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
  const lastChat = fakeProvider.requests
    .map(
      (r) => r.body as { stream?: boolean; model?: string; messages?: { role: string; content: string }[] },
    )
    .filter((b) => b?.stream)
    .at(-1);
  expect(lastChat?.model).toBe("fake/other-model");
  expect(lastChat?.messages?.[0]?.content).toMatch(/^Answer like a pirate\.[\s\S]*The user likes tea\./);
  const settings = await rpc.call<{ model: { model: string } }>("settings.get");
  expect(settings.model.model).toBe("fake/chat-small");

  // The chat keeps its model across a reload.
  await page.reload();
  await chatList(page).getByRole("button").first().click();
  await expect(page.getByRole("button", { name: "Model for this chat" })).toContainText("fake/other-model");
});
