/**
 * The bundled chart-writer backend (docs/contract.md §8's documented pattern) through a real host and its
 * worker: `chart.suggest` answers `{job}` at once, runs the model on the plugin's own
 * `chart_writer` slot with the text redacted (force) and delivers `chart.written` with the same job
 * and the chart, or an error in plain words; a fifth job while four run is refused as busy.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EventFrame } from "../../../electron/host/rpc/frames.js";
import { startFakeProvider, type FakeProvider } from "../../fixtures/fake-provider.js";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { waitFor } from "../support/temp-home.js";

const KEY = "sk-test-5555555555555555555555555555char";
let t: TestHost;
let provider: FakeProvider;
const frames: EventFrame[] = [];
const bar = { kind: "bar", title: "Sales", x: "month", y: ["sales"] };

beforeAll(async () => {
  provider = await startFakeProvider({ apiKey: KEY });
  t = await startTestHost();
  t.host.events.subscribe((frame) => frames.push(frame));
  await t.call("providers.save", { id: "fake", name: "Fake", base_url: provider.baseURL, apiKey: KEY });
  await t.call("model.set", { scope: "main", provider: "fake", model: "fake/chat-small" });
  const enabled = await t.call("plugins.setEnabled", { id: "chart-writer", enabled: true });
  expect(enabled.result).toMatchObject({
    plugin: { status: "loaded", pages: [{ id: "charts", title: "Charts" }] },
  });
}, 60_000);
afterAll(async () => {
  await t.dispose();
  await provider.close();
});
beforeEach(() => {
  provider.reset();
  frames.length = 0;
});

const suggest = (text: string, sessionId = "s-chart") =>
  t.call("plugin.chart-writer.chart.suggest", { session_id: sessionId, text });
const written = async (job: string): Promise<EventFrame> =>
  (await waitFor(() =>
    frames.find(
      (f) =>
        f.params.type === "plugin.chart-writer.chart.written" &&
        (f.params.payload as { job: string }).job === job,
    ),
  ))!;

describe("chart-writer", () => {
  it("answers {job} at once and delivers the chart for the same job on the session", async () => {
    provider.enqueue({ kind: "json", value: bar });
    const answer = await suggest("month,sales\nJan,1\nFeb,2");
    const { job } = answer.result as { job: string };
    expect(job).toMatch(/^[0-9a-f-]{36}$/);
    const frame = await written(job);
    expect(frame.params).toEqual({
      type: "plugin.chart-writer.chart.written",
      session_id: "s-chart",
      payload: { job, chart: bar },
    });
    const body = JSON.stringify(provider.requests.at(-1)!.body);
    expect(body).toContain("json_schema");
    expect(body).toContain("Jan,1");
  });

  it("redacts secrets in the text before the model sees them, even with redaction off", async () => {
    await t.call("settings.set", { key: "security.redact_secrets", value: false });
    provider.enqueue({ kind: "json", value: bar });
    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    const { job } = (await suggest(`month,sales\nJan,1\nkey,${secret}`)).result as { job: string };
    await written(job);
    expect(JSON.stringify(provider.requests.at(-1)!.body)).not.toContain(secret);
    await t.call("settings.set", { key: "security.redact_secrets", value: true });
  });

  it("says in plain words when the model did not answer with JSON", async () => {
    provider.enqueue("A bar chart, I think.");
    const { job } = (await suggest("month,sales\nJan,1")).result as { job: string };
    const payload = (await written(job)).params.payload as { error: string };
    expect(payload.error).toMatch(/did not answer with JSON/);
  });

  it("refuses a fifth job while four run, as busy, and takes new ones once they finish", async () => {
    provider.fault({ kind: "slow", delayMs: 1_500 }, { times: 4 });
    for (let i = 0; i < 4; i++) provider.enqueue({ kind: "json", value: bar });
    const jobs = await Promise.all([1, 2, 3, 4].map(() => suggest("month,sales\nJan,1")));
    expect(jobs.every((j) => (j.result as { job?: string }).job)).toBe(true);
    const fifth = await suggest("month,sales\nJan,1");
    expect(fifth.error?.data.reason).toBe("plugin_rpc_failed");
    expect(fifth.error?.message).toMatch(/is busy/);
    for (const j of jobs) await written((j.result as { job: string }).job);
    provider.enqueue({ kind: "json", value: bar });
    const after = await suggest("month,sales\nJan,1");
    await written((after.result as { job: string }).job);
  }, 20_000);

  it("refuses an empty table and a call without a session", async () => {
    expect((await suggest("  ")).error?.message).toMatch(/Paste a table first/);
    const noSession = await t.call("plugin.chart-writer.chart.suggest", { text: "a,b\n1,2" });
    expect(noSession.error?.message).toMatch(/needs a session/);
  });

  it("keeps finished jobs a day; pruning drops older ones", async () => {
    await t.call("plugins.setEnabled", { id: "chart-writer", enabled: false });
    const file = path.join(t.home, "plugin-data", "chart-writer", "state.json");
    const state = JSON.parse(fs.readFileSync(file, "utf8")) as {
      jobs: Record<string, { finishedAt: number }>;
    };
    const kept = Object.keys(state.jobs).length;
    expect(kept).toBeGreaterThan(0);
    state.jobs.ancient = { finishedAt: Date.now() - 2 * 24 * 3600 * 1000 };
    fs.writeFileSync(file, JSON.stringify(state));
    await t.call("plugins.setEnabled", { id: "chart-writer", enabled: true });
    expect((await t.call("plugin.chart-writer.jobs.prune", {})).result).toEqual({ pruned: 1 });
    // The worker's state write reaches the file a moment after its answer.
    await waitFor(() => {
      const after = JSON.parse(fs.readFileSync(file, "utf8")) as { jobs: Record<string, unknown> };
      return Object.keys(after.jobs).length === kept && !("ancient" in after.jobs);
    });
  });

  it("says that no model is set when there is none", async () => {
    t.host.settings.update((doc) => {
      delete (doc as { model?: unknown }).model;
    });
    const { job } = (await suggest("month,sales\nJan,1")).result as { job: string };
    const payload = (await written(job)).params.payload as { error: string };
    expect(payload.error).toMatch(/No model is set/);
  });
});
