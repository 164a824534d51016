/** KaTeX's stylesheet, in its own module so it loads with the math plugins, not at start-up. */
import "katex/dist/katex.min.css";
