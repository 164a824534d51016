/**
 * Links in a reply: web and mail links open in a new tab (rel=noopener; the desktop shell sends the
 * same links to the system browser), footnotes stay in the reply, and any other scheme is refused
 * with a note beside the link; the app's page never navigates away.
 */
import { expect, test } from "./fixtures/app-test.js";
import { replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

const reply = [
  "Read [the docs](https://docs.example.com/guide), or [write to us](mailto:help@example.com).",
  "Or join [the channel](irc://irc.example.org/hermes), open [this file](file:///etc/hosts) or",
  "[run this](javascript:document.body.remove()). A claim.[^1]",
  "",
  "[^1]: Its source.",
].join("\n");

test("web and mail links open outside the app; other schemes are refused with a note", async ({
  page,
  context,
  hermes,
  fakeProvider,
}) => {
  await context.route("https://docs.example.com/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<title>Guide</title>" }),
  );
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue(reply);
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Where can I read more?");
  const answer = replies(page).last();
  await expect(answer).toHaveAttribute("data-status", "complete");
  const appUrl = page.url();

  for (const name of ["the docs", "write to us"]) {
    const link = answer.getByRole("link", { name, exact: true });
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /\bnoopener\b/);
  }
  const [tab] = await Promise.all([
    page.waitForEvent("popup"),
    answer.getByRole("link", { name: "the docs" }).click(),
  ]);
  await expect(tab).toHaveURL("https://docs.example.com/guide");
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  await tab.close();

  // The footnote reference moves within the page, in the same tab.
  await expect(answer.locator('sup a[href*="fn-1"]')).not.toHaveAttribute("target");

  for (const name of ["the channel", "this file", "run this"]) {
    const link = answer.getByRole("link", { name, exact: true });
    await expect(link).not.toHaveAttribute("target");
    let popups = 0;
    page.on("popup", () => popups++);
    await link.click();
    await expect(
      link.locator("xpath=following-sibling::*[1]").filter({ has: page.locator(":scope[role=status]") }),
    ).toHaveText("Not opened: only web (http, https) and mail (mailto) links open from a reply.");
    expect(popups).toBe(0);
    expect(page.url()).toBe(appUrl);
  }
  await expect(page.locator("body")).toContainText("Where can I read more?");
});
