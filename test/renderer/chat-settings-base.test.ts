/**
 * A window saves a chat setting with the value it showed (`base`), so the host can tell when
 * another window changed it in between and show a conflict instead of losing it silently.
 */
import { expect, it } from "vitest";
import { createChatSettingsStore } from "../../renderer/src/stores/chat/chat-settings-store";
import { fakeClient, settingsWith } from "./fake-client";

it("sends the value this window showed as base, and then shows what it saved", async () => {
  const client = fakeClient({
    "settings.get": () => settingsWith({ display: { theme: "light" } }),
    "settings.set": () => ({ ok: true }),
  });
  const store = createChatSettingsStore(client);
  await store.getState().load();
  await store.getState().save("theme", "dark");
  expect(client.callsOf("settings.set")).toEqual([{ key: "display.theme", value: "dark", base: "light" }]);
  await store.getState().save("theme", "system");
  expect(client.callsOf("settings.set").at(-1)).toEqual({
    key: "display.theme",
    value: "system",
    base: "dark",
  });
});

it("sends no base when the settings could not be read (nothing shown to compare with)", async () => {
  const client = fakeClient({
    "settings.get": () => {
      throw new Error("the host is not answering");
    },
    "settings.set": () => ({ ok: true }),
  });
  const store = createChatSettingsStore(client);
  await store.getState().load();
  await store.getState().save("busyInputMode", "steer");
  expect(client.callsOf("settings.set")).toEqual([{ key: "display.busy_input_mode", value: "steer" }]);
});
