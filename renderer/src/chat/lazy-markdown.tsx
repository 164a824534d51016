/**
 * The Markdown renderer (react-markdown, GFM, highlight.js: most of the renderer's code) as its
 * own chunk. The first paint shows no reply, so it need not wait for it: it is preloaded once the
 * shell is up, and a reply shown before it arrives is plain text for that moment.
 */
import type { StreamedText } from "../stores/streamed-text.js";
import { deferredComponent } from "../ui/deferred-component.js";

const DeferredMarkdown = deferredComponent(() => import("./markdown.js").then((module) => module.Markdown));

/**
 * Loads the renderer and, in later idle moments (one sample each), runs its parser over a sample
 * of every kind of block so a first reply is quick.
 */
export function preloadMarkdown(): Promise<unknown> {
  return DeferredMarkdown.preload().then(() =>
    import("./markdown.js").then(({ warmUpMarkdown }) => {
      if (typeof requestIdleCallback !== "function") return;
      const step = (index: number) => {
        if (warmUpMarkdown(index)) requestIdleCallback(() => step(index + 1));
      };
      requestIdleCallback(() => step(0));
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
