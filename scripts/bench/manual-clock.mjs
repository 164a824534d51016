// The tests' ManualClock (test/fixtures/manual-clock.ts) for the bench, loaded through tsx: a test
// tool, so the product's build (out/) does not carry it.
import { tsImport } from "tsx/esm/api";

export const { ManualClock } = await tsImport("../../test/fixtures/manual-clock.ts", import.meta.url);
