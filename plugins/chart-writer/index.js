// chart-writer: the backend half of the Charts page (docs/contract.md §8's documented pattern). The page calls
// `chart.suggest {text}`; the handler answers `{job}` at once and runs the model call on the
// plugin's own `chart_writer` slot in the background, then delivers `chart.written` with the same
// job and either `{chart}` or `{error}` in plain words. At most 4 jobs run at once; a fifth is
// refused as busy. Finished jobs are kept a day in ctx.state; an idle task prunes older ones.

const MAX_JOBS_IN_FLIGHT = 4;
const MAX_TEXT_CHARS = 20_000;
const KEEP_JOBS_MS = 24 * 60 * 60 * 1000;
const KINDS = ["bar", "line", "pie", "scatter"];

const CHART_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["kind", "title", "x", "y"],
  properties: {
    kind: { type: "string", enum: KINDS },
    title: { type: "string" },
    x: { type: "string", description: "The column holding labels or x values, exactly as in the header." },
    y: {
      type: "array",
      minItems: 1,
      items: { type: "string" },
      description: "The numeric column(s) to plot, exactly as in the header.",
    },
  },
};

const INSTRUCTIONS = [
  "You pick the best chart for a small table the user pasted (CSV or a Markdown table).",
  `Answer with JSON only: kind (one of ${KINDS.join(", ")}), a short title, x (the header of the`,
  "label or x column) and y (the headers of the numeric columns to plot; one for pie).",
  "Use bar for categories, line for ordered x such as dates, pie for parts of a whole, scatter for",
  "two numeric columns. Copy column headers exactly.",
].join(" ");

/** Plain words for what went wrong, for the page to show as is. */
function describeFailure(error) {
  const name = error && error.name;
  if (name === "NoModelConfiguredError")
    return "No model is set: pick a main model in Settings → Models → Main, or pin one to the Charts slot in Settings → Models → Auxiliary.";
  if (name === "PluginLlmSchemaError")
    return "The model answered JSON, but not a chart this page can draw (wrong kind or columns). Try again.";
  if (name === "PluginLlmBudgetError")
    return "The Charts plugin spent today's token budget; raise it in Settings → Plugins or try tomorrow.";
  return `The model call failed: ${error && error.message ? error.message : String(error)}`;
}

/** @param {import("../sdk/types.js").PluginContext} ctx */
export function register(ctx) {
  ctx.registerAuxiliaryTask("chart_writer", {
    displayName: "Charts",
    description: "Picks a chart kind and its columns for a pasted table.",
    defaults: { timeout: 60 },
  });

  let inFlight = 0;

  const keepJob = (job, entry) => {
    const jobs = ctx.state.get("jobs") ?? {};
    jobs[job] = entry;
    ctx.state.set("jobs", jobs);
  };

  const run = async (job, sessionId, text) => {
    let payload;
    try {
      const result = await ctx.llm.completeStructured({
        instructions: INSTRUCTIONS,
        input: [{ type: "text", text }],
        jsonSchema: CHART_SCHEMA,
        schemaName: "chart",
        maxTokens: 300,
        purpose: "chart.suggest",
        task: "chart_writer",
        sessionId,
      });
      if (result.contentType !== "json" || !result.parsed) {
        payload = {
          job,
          error:
            "The model did not answer with JSON, so no chart could be picked. Try again, or pin a model that follows JSON instructions to the Charts slot.",
        };
      } else {
        payload = { job, chart: result.parsed };
      }
    } catch (error) {
      payload = { job, error: describeFailure(error) };
    } finally {
      inFlight -= 1;
    }
    keepJob(job, { sessionId, finishedAt: Date.now(), ok: !payload.error });
    ctx.emitToSession(sessionId, "chart.written", payload);
  };

  ctx.registerRpc("chart.suggest", (params, { sessionId }) => {
    if (!sessionId) throw new Error("chart.suggest needs a session: open the page from the app.");
    const raw = typeof params.text === "string" ? params.text.trim() : "";
    if (!raw) throw new Error("Paste a table first (CSV or Markdown).");
    if (raw.length > MAX_TEXT_CHARS)
      throw new Error(`The table is longer than ${MAX_TEXT_CHARS} characters; paste a smaller one.`);
    if (inFlight >= MAX_JOBS_IN_FLIGHT)
      throw new Error(
        `chart.suggest is busy: ${MAX_JOBS_IN_FLIGHT} charts are being written; wait for one to finish.`,
      );
    inFlight += 1;
    const job = crypto.randomUUID();
    // Secrets never reach the model, whatever security.redact_secrets says.
    const text = ctx.redact(raw, { force: true });
    void run(job, sessionId, text);
    return { job };
  });

  const pruneJobs = () => {
    const jobs = ctx.state.get("jobs") ?? {};
    const cutoff = Date.now() - KEEP_JOBS_MS;
    const kept = Object.fromEntries(Object.entries(jobs).filter(([, entry]) => entry.finishedAt >= cutoff));
    ctx.state.set("jobs", kept);
    return { pruned: Object.keys(jobs).length - Object.keys(kept).length };
  };
  // Also callable on demand (and by tests); the idle task below runs it when the app is idle.
  ctx.registerRpc("jobs.prune", () => pruneJobs());

  // Once a day, when the app has sat idle an hour, finished jobs older than a day go.
  ctx.registerIdleTask("prune_jobs", pruneJobs, { intervalHours: 24, minIdleHours: 1, firstRun: "defer" });
}
