/**
 * Images in chat end to end (docs/contract.md §9.1): an image pasted into the composer of a chat whose main
 * model is text-only is described through the `vision` slot, the description goes to the main
 * model in its place, and the transcript shows the image with the vision mark.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/app-test.js";
import { composer, setUpChat, userMessages } from "./fixtures/chat-ui.js";

const PNG_1PX =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** A real paste event carrying a PNG file, as the OS clipboard hands it to the page. */
async function pasteImage(
  page: Page,
  base64: string,
  type = "image/png",
  name = "pasted.png",
): Promise<void> {
  await composer(page).evaluate(
    (el, file) => {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], file.name, { type: file.type }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { base64, type, name },
  );
}

test("a pasted image goes through the vision slot when the main model is text-only", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const { rpc, providerId } = await setUpChat(hermes, fakeProvider);
  await rpc.call("model.set", {
    scope: "auxiliary",
    task: "vision",
    provider: providerId,
    model: "fake/vision",
  });
  fakeProvider.enqueue({ kind: "text", content: "A single grey pixel on white." });
  await page.goto(hermes.launchUrl);

  await pasteImage(page, PNG_1PX);
  await expect(page.getByRole("list", { name: "Attached images" }).getByRole("img")).toHaveCount(1);
  // Not an image: refused in the composer with what to do.
  await pasteImage(page, btoa("plain text"), "text/plain", "notes.txt");
  await expect(page.getByRole("alert")).toContainText('"notes.txt" is not an image the app can send');

  await composer(page).fill("What is in this picture?");
  await composer(page).press("Enter");

  await expect
    .poll(() =>
      fakeProvider.requests.some(
        (r) =>
          (r.body as { model?: string }).model === "fake/vision" &&
          JSON.stringify(r.body).includes(`data:image/png;base64,${PNG_1PX}`),
      ),
    )
    .toBe(true);
  const message = userMessages(page).last();
  await expect(message.getByRole("img")).toHaveCount(1);
  await expect(message).toContainText(`Described by the vision model (${providerId} · fake/vision)`);
  await expect(page.getByRole("list", { name: "Attached images" })).toHaveCount(0);

  // The main model got the description in place of the image.
  await expect
    .poll(() =>
      fakeProvider.requests.some((r) =>
        JSON.stringify(r.body).includes("described by the vision model: A single grey pixel on white."),
      ),
    )
    .toBe(true);
});
