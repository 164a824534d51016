// How a plugin's main module is loaded in its worker (runtime/in-worker/plugin-module.ts): `require()` first,
// `import()` where only it can load the file. Each form loads as `import()` alone would load it, and
// its top-level code runs once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enable, startRig, writePlugin, type Rig } from "./plugin-rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.dispose());

const context = { sessionId: "s", gatewaySessionKey: "g" };
/** Top-level code that counts its runs in the worker; the command reports the count and the form. */
const counted = (id: string, form: string) =>
  `globalThis.runs = (globalThis.runs ?? 0) + 1;
   const commandFor = (ctx) => ctx.registerCommand({ name: "${id}", handler: () => "${form}:" + globalThis.runs });`;

describe("a plugin's main module", () => {
  it("loads as an ES module, with top-level await, as CommonJS and as .mjs, its top level run once", async () => {
    writePlugin(rig.userPlugins, "form-esm", {
      "index.js": `${counted("form-esm", "esm")}\nexport function register(ctx) { commandFor(ctx); }`,
    });
    writePlugin(rig.userPlugins, "form-tla", {
      "index.js": `${counted("form-tla", "tla")}\nawait new Promise((r) => setTimeout(r, 5));\nexport default function (ctx) { commandFor(ctx); }`,
    });
    writePlugin(rig.userPlugins, "form-cjs", {
      "index.js": `${counted("form-cjs", "cjs")}\nmodule.exports = function register(ctx) { commandFor(ctx); };`,
    });
    writePlugin(
      rig.userPlugins,
      "form-mjs",
      {
        "main.mjs": `import { form } from "./form.mjs";\n${counted("form-mjs", "mjs")}\nexport const register = (ctx) => { if (form === "mjs") commandFor(ctx); };`,
        "form.mjs": 'export const form = "mjs";',
      },
      "name: form-mjs\nversion: 1.0.0\nmain: main.mjs\n",
    );
    enable(rig.settings, "form-esm", "form-tla", "form-cjs", "form-mjs");
    const manager = rig.manager();
    await manager.start();
    const forms = ["form-esm", "form-tla", "form-cjs", "form-mjs"];
    expect(Object.fromEntries(manager.list().map((p) => [p.id, p.status]))).toMatchObject(
      Object.fromEntries(forms.map((id) => [id, "loaded"])),
    );
    const answers = await Promise.all(forms.map((id) => rig.commands.get(id)!.handler("", context)));
    expect(answers).toEqual(["esm:1", "tla:1", "cjs:1", "mjs:1"]);
    await manager.close();
  });

  it("whose top level throws fails with that reason, after await too; a missing import names the module", async () => {
    writePlugin(rig.userPlugins, "form-throws", {
      "index.js": 'throw new Error("top-level boom");\nexport function register() {}',
    });
    writePlugin(rig.userPlugins, "form-tla-throws", {
      "index.js": 'await null;\nthrow new Error("after await boom");\nexport function register() {}',
    });
    writePlugin(rig.userPlugins, "form-missing", {
      "index.js": 'import "./nowhere.js";\nexport function register() {}',
    });
    enable(rig.settings, "form-throws", "form-tla-throws", "form-missing");
    const manager = rig.manager();
    await manager.start();
    const byId = Object.fromEntries(manager.list().map((p) => [p.id, p]));
    expect(byId["form-throws"]).toMatchObject({
      status: "failed",
      error: "Loading index.js failed: top-level boom",
    });
    expect(byId["form-tla-throws"]).toMatchObject({
      status: "failed",
      error: "Loading index.js failed: after await boom",
    });
    expect(byId["form-missing"]!.status).toBe("failed");
    expect(byId["form-missing"]!.error).toMatch(/^Loading index\.js failed: .*nowhere\.js/);
    await manager.close();
  });
});
