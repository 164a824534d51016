// A plugin worker's boot check (runtime/in-worker/worker-confinement.ts), against the permission objects of
// real workers on this Node: one started with its permission flags passes; one without them, one
// allowed to start workers or child processes, and one that may read under a working directory
// other than its own code folder are refused with a reason. (The whole path, a plugin that shows
// as failed, is in test/host/shell/plugin-host-utility.test.ts.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import {
  permissionFlag,
  workerPermissionFlags,
} from "../../../electron/host/plugins/runtime/launch/permission-flags.js";
import {
  assertWorkerConfined,
  confinementProblem,
  NOT_CONFINED,
} from "../../../electron/host/plugins/runtime/in-worker/worker-confinement.js";

const ownDir = mkdtempSync(path.join(tmpdir(), "hermes-confinement-"));
afterAll(() => rmSync(ownDir, { recursive: true, force: true }));

interface Answers {
  none: boolean;
  child: boolean;
  worker: boolean;
  writeRoot: boolean;
  read: Record<string, boolean>;
}

/** What `process.permission.has` answers inside a worker started with `execArgv`. */
function askWorker(execArgv: string[], paths: string[]): Promise<Answers> {
  const probe = `const { parentPort, workerData } = require("node:worker_threads");
    const p = process.permission;
    parentPort.postMessage(p ? { none: false, child: p.has("child"), worker: p.has("worker"), writeRoot: p.has("fs.write", "/"),
      read: Object.fromEntries(workerData.map((file) => [file, p.has("fs.read", file)])) } : { none: true });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(probe, {
      eval: true,
      execArgv: [...execArgv, "--no-warnings"],
      env: {},
      workerData: paths,
    });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

const permissionOf = (answers: Answers) =>
  answers.none
    ? undefined
    : {
        has: (scope: string, reference?: string) =>
          scope === "child"
            ? answers.child
            : scope === "worker"
              ? answers.worker
              : scope === "fs.write"
                ? answers.writeRoot
                : (answers.read[reference!] ?? false),
      };

const probeUnder = (dir: string) => path.join(dir, "hermes-confinement-probe");

describe("a plugin worker's boot check", () => {
  it("passes a worker started with its permission flags, working directory its own folder", async () => {
    const answers = await askWorker(workerPermissionFlags({ read: [ownDir], write: [] }), [
      probeUnder(ownDir),
    ]);
    expect(confinementProblem({ permission: permissionOf(answers), cwd: ownDir, ownDir })).toBeNull();
    expect(() =>
      assertWorkerConfined({ permission: permissionOf(answers), cwd: ownDir, ownDir }),
    ).not.toThrow();
  });

  it("refuses a worker without the permission model, with the reason and its code", async () => {
    const answers = await askWorker([], []);
    expect(answers.none).toBe(true);
    expect(() => assertWorkerConfined({ permission: undefined, cwd: ownDir, ownDir })).toThrow(
      expect.objectContaining({
        code: NOT_CONFINED,
        message: expect.stringMatching(/^Not started: Node's permission model is not in force in its worker/),
      }),
    );
  });

  it("refuses a worker that may start workers or child processes", async () => {
    const workers = await askWorker([permissionFlag(), `--allow-fs-read=${ownDir}/`, "--allow-worker"], []);
    expect(confinementProblem({ permission: permissionOf(workers), cwd: ownDir, ownDir })).toBe(
      "its worker may start workers of its own",
    );
    const children = await askWorker([permissionFlag(), "--allow-child-process"], []);
    expect(confinementProblem({ permission: permissionOf(children), cwd: ownDir, ownDir })).toBe(
      "its worker may start child processes",
    );
  });

  it("refuses a worker that may read under a working directory other than its own folder", async () => {
    // What Node 24 grants a worker by itself when the plugin host stays in, say, the home folder.
    const home = mkdtempSync(path.join(tmpdir(), "hermes-home-"));
    try {
      const answers = await askWorker(
        [permissionFlag(), `--allow-fs-read=${ownDir}/`, `--allow-fs-read=${home}/`],
        [probeUnder(home)],
      );
      expect(confinementProblem({ permission: permissionOf(answers), cwd: home, ownDir })).toBe(
        `its worker may read everything under the working directory ${home}`,
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
