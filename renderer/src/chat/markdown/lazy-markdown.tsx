/**
 * The Markdown renderer (react-markdown, GFM, highlight.js: most of the renderer's code) as its
 * own chunk. The first paint shows no reply, so it need not wait for it: it is preloaded once the
 * shell is up, and a reply shown before it arrives is plain text for that moment.
 */
import type { StreamedText } from "../../stores/chat/streamed-text.js";
import { deferredComponent } from "../../ui/deferred-component.js";

const DeferredMarkdown = deferredComponent(() => import("./markdown.js").then((module) => module.Markdown));

/**
 * An idle period at least this long has no frame due in it (the browser grants up to 50 ms then):
 * a warm-up sample takes up to ~16 ms on cold code, so between a stream's frames it would be a
 * long task of its own, and would delay the next frame.
 */
const warmUpIdleMs = 40;

/**
 * Loads the renderer and, in later idle moments with no frame due (one sample each), runs its
 * parser over a sample of every kind of block so a first reply is quick.
 */
export function preloadMarkdown(): Promise<unknown> {
  return DeferredMarkdown.preload().then(() =>
    import("./markdown.js").then(({ warmUpMarkdown }) => {
      if (typeof requestIdleCallback !== "function") return;
      const step = (index: number) => (deadline: IdleDeadline) => {
        if (deadline.timeRemaining() < warmUpIdleMs) requestIdleCallback(step(index));
        else if (warmUpMarkdown(index)) requestIdleCallback(step(index + 1));
      };
      requestIdleCallback(step(0));
    }),
  );
}

export function LazyMarkdown({
  text,
  streaming,
  streamed,
}: {
  text: string;
  streaming: boolean;
  streamed?: StreamedText | undefined;
}) {
  return (
    <DeferredMarkdown
      text={text}
      streaming={streaming}
      streamed={streamed}
      fallback={
        <div className="markdown markdown-loading">
          <p>{text}</p>
        </div>
      }
    />
  );
}
