/**
 * A ```mermaid fenced block drawn as a diagram. Mermaid is large, so it is imported the first
 * time a diagram is shown; while a reply streams (or when the source is not valid yet) the source
 * stays visible as code.
 */
import type * as MermaidModule from "mermaid";
import { useEffect, useId, useState } from "react";

type Mermaid = typeof MermaidModule.default;
let mermaidLoading: Promise<Mermaid> | null = null;

function loadMermaid(): Promise<Mermaid> {
  mermaidLoading ??= import("mermaid").then(({ default: mermaid }) => {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      theme: window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "default",
    });
    return mermaid;
  });
  return mermaidLoading;
}

/** Waits this long after the last change before drawing, so a streaming diagram is drawn once. */
const settleMs = 250;

export function MermaidDiagram({ source }: { source: string }) {
  const id = `mermaid-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const [svg, setSvg] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      loadMermaid()
        .then((mermaid) => mermaid.render(id, source))
        .then(
          (result) => {
            if (!live) return;
            setSvg(result.svg);
            setFailed(false);
          },
          () => live && setFailed(true),
        );
    }, settleMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [id, source]);

  if (svg && !failed) {
    // Mermaid renders with securityLevel "strict": its SVG is sanitized (no scripts, no links out).
    return (
      <div
        className="mermaid-diagram"
        role="img"
        aria-label="Diagram"
        dangerouslySetInnerHTML={{ __html: svg }}
      />
    );
  }
  return (
    <pre className="mermaid-source">
      <code>{source}</code>
      {failed ? (
        <span className="mermaid-note">This diagram could not be drawn; its source is shown.</span>
      ) : null}
    </pre>
  );
}
