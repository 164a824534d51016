// @vitest-environment happy-dom
/** Settings → Chat → Restore from backup: lists the backups, asks before restoring, says where the old chats went. */
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import type { BackupView } from "../../electron/host/rpc/methods/backups.js";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { fakeClient, settingsWith } from "./fake-client";
import { renderApp } from "./render-app";

afterEach(cleanup);

const daily: BackupView = {
  name: "sessions-2026-11-29T12-00-00-000Z-daily.sqlite",
  reason: "daily",
  createdAt: Date.UTC(2026, 10, 29, 12),
  bytes: 3 * 1024 * 1024,
};
const beforeUpdate: BackupView = {
  name: "sessions-2026-11-28T09-00-00-000Z-before_migration.sqlite",
  reason: "before_migration",
  createdAt: Date.UTC(2026, 10, 28, 9),
  bytes: 40 * 1024,
};

function openChatSettings() {
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
  );
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Settings" })).getByRole("button", { name: "Chat" }),
  );
}

it("asks before restoring, restores the chosen backup and says where the replaced chats were kept", async () => {
  let refuse = true;
  const client = fakeClient({
    "host.info": () => ({ version: "1", mode: "web", home: "/tmp/h", notices: [] }),
    "providers.list": () => ({ providers: [] }),
    "settings.get": () => settingsWith({}),
    "backups.list": () => ({ backups: [daily, beforeUpdate] }),
    "backups.restore": ({ name }) => {
      if (refuse) {
        refuse = false;
        throw new HermesRpcError(
          "conflict",
          "A reply is being written; stop it or wait for it to end, then restore the backup.",
        );
      }
      return { restored: name, keptAside: "/tmp/h/sessions.sqlite.before-restore-x" };
    },
  });
  renderApp(client);
  openChatSettings();
  const list = await screen.findByRole("list", { name: "Backups" });
  const rows = within(list).getAllByRole("listitem");
  expect(rows.map((row) => row.getAttribute("data-backup"))).toEqual([daily.name, beforeUpdate.name]);
  expect(rows[0]!.textContent).toMatch(/Daily · 3\.0 MB/);
  expect(rows[1]!.textContent).toMatch(/Before an update · 40 KB/);

  // Asking first: Cancel restores nothing.
  fireEvent.click(within(rows[1]!).getByRole("button", { name: /Restore the backup of/ }));
  const dialog = await screen.findByRole("dialog");
  expect(dialog.textContent).toMatch(/kept aside in a file first, not deleted/);
  fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  expect(client.callsOf("backups.restore")).toEqual([]);

  // A refusal is shown in the dialog; trying again restores.
  fireEvent.click(within(rows[1]!).getByRole("button", { name: /Restore the backup of/ }));
  fireEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Restore" }));
  expect(await within(screen.getByRole("dialog")).findByText(/stop it or wait for it to end/)).toBeTruthy();
  fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Restore" }));
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  expect(client.callsOf("backups.restore")).toEqual([
    { name: beforeUpdate.name },
    { name: beforeUpdate.name },
  ]);
  expect(
    await screen.findByText(
      /The chats it replaced were kept in \/tmp\/h\/sessions\.sqlite\.before-restore-x/,
    ),
  ).toBeTruthy();
});

it("says when there is no backup yet", async () => {
  const client = fakeClient({
    "host.info": () => ({ version: "1", mode: "web", home: "/tmp/h", notices: [] }),
    "providers.list": () => ({ providers: [] }),
    "settings.get": () => settingsWith({}),
    "backups.list": () => ({ backups: [] }),
  });
  renderApp(client);
  openChatSettings();
  expect(await screen.findByText(/No backup yet/)).toBeTruthy();
});
