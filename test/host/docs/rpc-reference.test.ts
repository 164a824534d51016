// docs/rpc-reference.md is generated from the contract; this fails when the two disagree.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { methodNames } from "../../../electron/host/rpc/contract.js";
import { eventNames } from "../../../electron/host/rpc/events.js";
import { referencePath, renderReference } from "../../../scripts/docs/rpc-reference.js";

describe("docs/rpc-reference.md", () => {
  it("says what the contract says now (regenerate with `npm run docs`)", () => {
    const rendered = renderReference();
    for (const name of [...methodNames, ...eventNames]) expect(rendered).toContain(`\`${name}\``);
    expect(readFileSync(referencePath, "utf8")).toBe(rendered);
    // It type-checks the whole contract (~7 s of CPU): a full parallel run can stretch that past 20 s.
  }, 90_000);
});
