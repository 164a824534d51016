// @vitest-environment happy-dom
/**
 * A streaming reply renders the same Markdown as a finished one; only decoration waits: the block
 * still being written is shown without syntax highlighting until it is closed or the reply ends.
 */
import { act, cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "../../renderer/src/chat/markdown";

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
});
