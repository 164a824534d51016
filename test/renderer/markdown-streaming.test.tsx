// @vitest-environment happy-dom
/**
 * A streaming reply renders the same Markdown as a finished one; only decoration waits: the block
 * still being written is shown without syntax highlighting until it is closed or the reply ends.
 */
import { act, cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown, newTextPerRender } from "../../renderer/src/chat/markdown/markdown";

afterEach(cleanup);

const code = "```js\nconst answer = 42;\n```";
const highlighted = (root: ParentNode) => root.querySelectorAll("pre code .hljs-keyword").length;

describe("a streaming reply's Markdown", () => {
  it("highlights a code block once it is closed, not while it is the open block", async () => {
    const view = render(<Markdown text={"Intro\n\n" + code} streaming />);
    await act(async () => undefined);
    expect(view.container.querySelector("pre code")?.textContent?.trim()).toBe("const answer = 42;");
    expect(highlighted(view.container)).toBe(0);

    view.rerender(<Markdown text={"Intro\n\n" + code + "\n\nAfter"} streaming />);
    await act(async () => undefined);
    expect(highlighted(view.container)).toBeGreaterThan(0);
    expect(view.container.textContent).toContain("After");
  });

  it("highlights the last block when the reply ends, and matches the finished reply's markup", async () => {
    const text = "# Title\n\nSome *words* and `code`.\n\n" + code;
    const streamed = render(<Markdown text={text} streaming />);
    await act(async () => undefined);
    streamed.rerender(<Markdown text={text} streaming={false} />);
    await act(async () => undefined);
    const finished = render(<Markdown text={text} />);
    await act(async () => undefined);
    expect(highlighted(streamed.container)).toBeGreaterThan(0);
    expect(streamed.container.innerHTML).toBe(finished.container.innerHTML);
  });

  it("marks each of its groups live while it streams, and none once it ends", async () => {
    // transcript.css lays live groups out even off-screen; the mark is on the groups themselves, so
    // ending a reply restyles its groups, not every element under the message.
    const text = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}.`).join("\n\n");
    const groups = (root: ParentNode) => [...root.querySelectorAll(".markdown-group")];
    const view = render(<Markdown text={text} streaming />);
    for (let wait = 0; wait < 50 && !view.container.textContent?.includes("Paragraph 39."); wait++) {
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    }
    expect(groups(view.container).length).toBeGreaterThan(1);
    expect(groups(view.container).every((group) => group.hasAttribute("data-live"))).toBe(true);

    view.rerender(<Markdown text={text} streaming={false} />);
    await act(async () => undefined);
    expect(groups(view.container).length).toBeGreaterThan(1);
    expect(groups(view.container).some((group) => group.hasAttribute("data-live"))).toBe(false);
  });

  it("shows every block of a long streamed reply once the stream is done", async () => {
    const words = Array.from({ length: 2000 }, (_, i) => (i % 80 === 79 ? `w${i}\n\n` : `w${i} `));
    const view = render(<Markdown text="" streaming />);
    let text = "";
    for (let i = 0; i < words.length; i += 250) {
      text += words.slice(i, i + 250).join("");
      view.rerender(<Markdown text={text} streaming />);
    }
    view.rerender(<Markdown text={text} streaming={false} />);
    await act(async () => undefined);
    expect(view.container.querySelectorAll("p")).toHaveLength(25);
    expect(view.container.textContent).toContain("w1999");
  });

  it("adds a burst of plain paragraphs a slice per frame, never all at once, and shows them all", async () => {
    // 120 plain paragraphs of ~540 characters: they parse at no cost, but each must be laid out.
    const paragraph = (p: number) => Array.from({ length: 80 }, (_, i) => `w${p * 80 + i}`).join(" ");
    const text = Array.from({ length: 120 }, (_, p) => paragraph(p)).join("\n\n") + "\n\nopen";
    const perRender = Math.ceil(newTextPerRender / paragraph(0).length) + 1;
    const view = render(<Markdown text="" streaming />);
    // The paragraphs on the page after each commit (an observer's callback runs between tasks).
    const counts: number[] = [];
    const observer = new MutationObserver(() => counts.push(view.container.querySelectorAll("p").length));
    observer.observe(view.container, { childList: true, subtree: true });
    view.rerender(<Markdown text={text} streaming />);
    for (let wait = 0; wait < 100 && counts[counts.length - 1] !== 121; wait++) {
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    }
    observer.disconnect();
    expect(counts[counts.length - 1]).toBe(121);
    expect(view.container.textContent).toContain("w9599");
    // Many steps, each adding at most a render's share (the test's first flush runs two renders).
    expect(counts.length).toBeGreaterThanOrEqual(Math.floor(121 / perRender));
    expect(counts[0]).toBeLessThanOrEqual(2 * perRender);
    counts.slice(1).forEach((count, i) => expect(count - counts[i]!).toBeLessThanOrEqual(perRender));
  });
});
