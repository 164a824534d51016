/**
 * The benches' floors are the cheapest thing doing the same job, not a different job: the LLM
 * figures' SDK floor (scripts/bench/sdk-floor.mjs) sends its requests on the product's own
 * transport, so the ~0.15–0.2 ms undici's fetch costs more per request no longer hides overhead;
 * the bare worker hop (plugin_call's and rpc_roundtrip's floor) passes a frame through a relay
 * process and a worker and back; plugin_load's floor starts its workers in a process under the
 * permission model, as the plugin host's are.
 * Runs against the built tree (out/), as the benches do.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: the built tree (out/) has no type declarations.
import { createProviderClient } from "../../../out/electron/host/llm/provider-client.js";
// @ts-expect-error: the built tree (out/) has no type declarations.
import { httpFetch } from "../../../out/electron/host/llm/http-fetch.js";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { floorSdk, stockSdk } from "../../../scripts/bench/sdk-floor.mjs";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { hopFloorPermission, startHopFloor } from "../../../scripts/bench/hop-floor.mjs";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { timeBareWorkers } from "../../../scripts/bench/bare-workers.mjs";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { permission as bareWorkersPermission } from "../../../scripts/bench/bare-workers.mjs";
import { permissionFlag } from "../../../electron/host/plugins/runtime/launch/plugin-host-process.js";

interface WithFetch {
  fetch: unknown;
}

describe("the LLM figures' SDK floor", () => {
  it("sends on the product's transport, as the product's provider client does", () => {
    const floor = floorSdk("http://127.0.0.1:9/v1", "sk-bench") as WithFetch;
    const product = createProviderClient({
      baseURL: "http://127.0.0.1:9/v1",
      apiKey: "sk-bench",
    }) as WithFetch;
    expect(floor.fetch).toBe(httpFetch);
    expect(floor.fetch).toBe(product.fetch);
  });

  it("keeps the stock SDK (undici's fetch) apart, as the figure reported beside it", () => {
    const stock = stockSdk("http://127.0.0.1:9/v1", "sk-bench") as WithFetch;
    expect(stock.fetch).not.toBe(httpFetch);
  });
});

describe("the bare worker hop", () => {
  it("passes a call through its relay process and worker and answers with its params", async () => {
    const hop = (await startHopFloor()) as { echo: (p: unknown) => Promise<unknown>; close: () => void };
    try {
      expect(await hop.echo({ i: 7, text: "ping" })).toEqual({ i: 7, text: "ping" });
    } finally {
      hop.close();
    }
  });

  it("starts plugin_load's bare workers, every one up, in a process under the permission model", async () => {
    const ms = (await timeBareWorkers(3)) as number;
    expect(ms).toBeGreaterThan(0);
  });

  it("switch the permission model on with the flag the product picks for this Node", () => {
    expect(hopFloorPermission).toBe(permissionFlag());
    expect(bareWorkersPermission).toBe(permissionFlag());
  });
});
