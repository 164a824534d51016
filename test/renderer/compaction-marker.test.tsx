// @vitest-environment happy-dom
/** The compaction marker (docs/contract.md §9.1): one collapsed line in the transcript that opens to the summary. */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { MessageRow } from "../../renderer/src/chat/transcript/message-row";
import type { ChatMessage } from "../../renderer/src/stores/chat/chat-model";

afterEach(cleanup);

const marker: ChatMessage = {
  id: "m-1",
  role: "notice",
  content: "The user planned a trip to Lisbon.",
  createdAt: 0,
  status: "complete",
  turnId: "t-1",
  seq: 9,
  meta: { notice: "compaction", compaction: { throughSeq: 7, messages: 8 } },
};

it("shows the marker collapsed, and the summary when opened", () => {
  render(
    <MessageRow message={marker} canRegenerate={false} onRegenerate={() => undefined} providerName={null} />,
  );
  const details = document.querySelector("details[data-compaction]") as HTMLDetailsElement;
  expect(details.open).toBe(false);
  const summary = screen.getByText("8 earlier messages summarised to fit the context window");
  fireEvent.click(summary);
  details.open = true;
  expect(screen.getByText("The user planned a trip to Lisbon.")).toBeTruthy();
});

it("other notices keep their plain line", () => {
  render(
    <MessageRow
      message={{ ...marker, id: "m-2", content: "Answered by Backup", meta: { notice: "fallback" } }}
      canRegenerate={false}
      onRegenerate={() => undefined}
      providerName={null}
    />,
  );
  expect(document.querySelector("details")).toBeNull();
  expect(screen.getByText("Answered by Backup")).toBeTruthy();
});
