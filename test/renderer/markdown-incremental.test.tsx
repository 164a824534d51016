// @vitest-environment happy-dom
/**
 * The streaming path renders what the one-shot path renders: a reply streamed in pieces (cut
 * anywhere, as a provider's chunks are) ends as the same DOM as the finished reply rendered at
 * once, and at every step shows what a fresh render of the text so far shows. An open code fence
 * shown as plain code is what the parser gives for it.
 */
import { act, cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown, OpenBlock } from "../../renderer/src/chat/markdown/markdown";
import { parseBlock } from "../../renderer/src/chat/markdown/markdown-parse";
import { openFenceOf } from "../../renderer/src/chat/markdown/open-fence";
import { appendStreamed, type StreamedText } from "../../renderer/src/stores/chat/streamed-text";
import { seededRandom } from "../fixtures/seeded-random.js";

afterEach(cleanup);

const tricky: Record<string, string> = {
  "a fence opened and closed across chunks":
    "Intro with *emphasis*.\n\n```ts\nconst a = 1;\n\n\nconst b = `x`;\n```\n\nAfter the fence, **bold**.\n",
  "a table growing row by row": "| name | value |\n| --- | ---: |\n| a | 1 |\n| b | 2 |\n| c | 3 |\n\nDone.",
  "nested lists": "- one\n  - nested\n    - deeper\n- two\n\n1. first\n2. second\n   - inner\n\n  text",
  "text right after a closed fence": "```js\nlet x = 1;\n```\nText right after\n\nand a paragraph",
  "a fence after text in the same block":
    "Here is code:\n```python\nprint(1)\n\nprint(2)\n```\nand more `inline`",
  "fences of different markers": "~~~\n```\nnot closing\n~~~\n\n````md\n```js\ninner\n```\n````\nend",
  "a list holding a fence": "1. step\n   ```sh\n   npm test\n   ```\n2. next\n```\nopen at the end",
  "blocks of every kind closing one after another":
    "# Heading\n\nA paragraph with **bold**.\n\n- a list\n- of two\n\n| t | u |\n| - | - |\n| 1 | 2 |\n\n```py\nprint(1)\n```\n\n> a quote\n\nlast words",
  "html and quotes": "<details>\n```\nnot a fence here\n</details>\n\n> quote\n```\ncode",
};

async function rendered(element: React.ReactElement): Promise<string> {
  const view = render(element);
  await act(async () => undefined);
  const html = view.container.innerHTML;
  view.unmount();
  return html;
}

describe("streamed Markdown against the one-shot render", () => {
  for (const [name, doc] of Object.entries(tricky)) {
    it(`ends as the one-shot render and matches a fresh render at every step: ${name}`, async () => {
      const finished = await rendered(<Markdown text={doc} />);
      for (const seed of [1, 2]) {
        const random = seededRandom(seed * 97 + doc.length);
        const view = render(<Markdown text="" streaming />);
        let text = "";
        let streamed: StreamedText | null = null;
        while (text.length < doc.length) {
          const piece = doc.slice(text.length, text.length + 1 + Math.floor(random() * 9));
          text += piece;
          streamed = appendStreamed(streamed, piece);
          view.rerender(<Markdown text={text} streaming streamed={streamed} />);
          await act(async () => undefined);
          const fresh = await rendered(<Markdown text={text} streaming />);
          expect(view.container.innerHTML, `after ${JSON.stringify(text)}`).toBe(fresh);
        }
        // The host's final message: the whole text, no pieces, not streaming.
        view.rerender(<Markdown text={doc} />);
        await act(async () => undefined);
        expect(view.container.innerHTML).toBe(finished);
        view.unmount();
      }
    });
  }
});

describe("a block that closes while the reply streams", () => {
  it("keeps its DOM: the paragraph shown while it was written is the one shown once it is closed", async () => {
    const view = render(<Markdown text="" streaming />);
    let streamed = appendStreamed(null, "First *paragraph*.\n\nSecond one, still");
    view.rerender(<Markdown text={streamed.piece} streaming streamed={streamed} />);
    await act(async () => undefined);
    const second = view.container.querySelectorAll("p")[1]!;
    expect(second.textContent).toBe("Second one, still");

    streamed = appendStreamed(streamed, " written.\n\nThird.");
    view.rerender(
      <Markdown
        text={"First *paragraph*.\n\nSecond one, still written.\n\nThird."}
        streaming
        streamed={streamed}
      />,
    );
    await act(async () => undefined);
    const [, closed, third] = view.container.querySelectorAll("p");
    expect(closed).toBe(second);
    expect(closed!.textContent).toBe("Second one, still written.");
    expect(third!.textContent).toBe("Third.");

    // Closing it (no new text in it) leaves even its text node in place.
    const before = closed!.firstChild;
    streamed = appendStreamed(streamed, "\n\nFourth");
    view.rerender(
      <Markdown
        text={"First *paragraph*.\n\nSecond one, still written.\n\nThird.\n\nFourth"}
        streaming
        streamed={streamed}
      />,
    );
    await act(async () => undefined);
    const paragraphs = view.container.querySelectorAll("p");
    expect(paragraphs[1]).toBe(second);
    expect(paragraphs[1]!.firstChild).toBe(before);
    expect(paragraphs[2]!.textContent).toBe("Third.");
  });
});

describe("an open code fence shown as plain code", () => {
  const open = [
    "```js\nconst a",
    "```js\nconst a\n",
    "```js\nconst a\n\n\n",
    "```",
    "```\n",
    "Intro *text*\n```js\nx < y && z",
    "- a\n- b\n```js\nx",
    "> q\n```\nz",
    "~~~ js extra words\n  indented",
    "````\n```\nstill open",
    "| a |\n| - |\n| 1 |\n```js\nx",
    "```js\nx\n```\n```py\ny",
    // Long enough to be shown as several text nodes.
    "```txt\n" + Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n"),
    "```txt\n" + Array.from({ length: 128 }, (_, i) => `line ${i}`).join("\n") + "\n",
  ];
  for (const block of open) {
    it(`is the parser's unhighlighted output: ${JSON.stringify(block)}`, async () => {
      expect(openFenceOf(block)).not.toBeNull();
      const plain = await rendered(<OpenBlock text={block} />);
      const parsed = await rendered(<div className="markdown-block">{parseBlock(block, null, false)}</div>);
      expect(plain).toBe(parsed);
    });
  }

  it("leaves the text of finished lines untouched while the code grows", async () => {
    const lines = (n: number) => "```txt\n" + Array.from({ length: n }, (_, i) => `line ${i}`).join("\n");
    const view = render(<OpenBlock text={lines(150)} />);
    const code = view.container.querySelector("code")!;
    const first = code.firstChild!;
    const before = first.textContent;
    expect(code.childNodes.length).toBeGreaterThan(1);
    view.rerender(<OpenBlock text={lines(400)} />);
    await act(async () => undefined);
    expect(code.firstChild).toBe(first);
    expect(first.textContent).toBe(before);
    expect(code.textContent).toBe(lines(400).slice("```txt\n".length) + "\n");
  });

  it("is not taken where the parser might read the fence otherwise", () => {
    for (const block of [
      "```js\nx\n```", // closed
      "   ```js\nx", // indented: may belong to a list item
      "<div>\n```js\nx", // inside an HTML block
      "``` a`b\nx", // a backtick in the info string: inline code, not a fence
      "$$\n```\nx", // inside display math
      "[^1]: note\n```js\nx", // footnotes render after everything
      "```c\\+\\+\nx", // an escape in the info string
      "para only",
    ]) {
      expect(openFenceOf(block), block).toBeNull();
    }
  });
});
