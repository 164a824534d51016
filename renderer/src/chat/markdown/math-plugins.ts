/**
 * Math (KaTeX through remark-math and rehype-katex), loaded the first time a reply holds math so
 * the app's first paint does not carry KaTeX. `$…$` inline, `$$…$$` display.
 */
import { useEffect, useState } from "react";
import type { PluggableList } from "unified";

export interface MathPlugins {
  remark: PluggableList;
  rehype: PluggableList;
}

let loaded: MathPlugins | null = null;
let loading: Promise<MathPlugins> | null = null;

function loadMath(): Promise<MathPlugins> {
  loading ??= Promise.all([import("remark-math"), import("rehype-katex"), import("./katex-styles.js")]).then(
    ([remarkMath, rehypeKatex]) => {
      loaded = {
        remark: [remarkMath.default],
        rehype: [[rehypeKatex.default, { throwOnError: false, strict: "ignore" }]],
      };
      return loaded;
    },
  );
  return loading;
}

/** The math plugins a block of this text renders with right now (null: none, or not loaded yet). */
export function currentMathPlugins(text: string): MathPlugins | null {
  return loaded && mayHoldMath(text) ? loaded : null;
}

/** Math delimiters outside code: `$$`, or `$…$` around something that is not a price. */
export function mayHoldMath(text: string): boolean {
  return /\$\$|\\\(|\\\[|\$[^\s$\d][^$\n]*\$/.test(text);
}

/** The math plugins once loaded (null until then, or when the text has no math). */
export function useMathPlugins(text: string): MathPlugins | null {
  const wanted = mayHoldMath(text);
  const [plugins, setPlugins] = useState<MathPlugins | null>(loaded);
  useEffect(() => {
    if (!wanted || plugins) return;
    let live = true;
    void loadMath().then((p) => live && setPlugins(p));
    return () => {
      live = false;
    };
  }, [wanted, plugins]);
  return wanted ? plugins : null;
}
