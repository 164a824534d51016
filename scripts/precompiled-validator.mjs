// The settings validator as ajv's standalone code (an ES module), for the build: it takes the
// place of electron/host/config/settings-validator.ts in the app's bundles, so a start runs the
// validator instead of compiling it. Made from that module's own options and schema (tsc's output
// in out/electron), so both are the same validator; test/host/config/precompiled-validator.test.ts
// holds them to the same answers.
import { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";

const standaloneCode = standalone.default ?? standalone;

/**
 * The module's source: `compileSettingsValidator()` answering the precompiled validator. ajv's
 * runtime helpers are imported from `runtimeDir` (a package path the bundler resolves, or a file
 * URL for code loaded from elsewhere).
 */
export function precompiledValidatorModule(options, schema, runtimeDir = "ajv/dist/runtime") {
  const ajv = new Ajv({ ...options, code: { source: true, esm: true } });
  const code = standaloneCode(ajv, ajv.compile(schema));
  const imports = [];
  // Standalone code requires its runtime helpers even as an ES module: turn each into an import.
  const esm = code.replace(/require\("ajv\/dist\/runtime\/([a-z0-9_]+)"\)\.default/gi, (_, name) => {
    const binding = `ajvRuntime_${name}`;
    if (!imports.some((line) => line.includes(binding))) {
      // A CommonJS module with `exports.default`: a bundler hands it over as the namespace's
      // default, Node as the default's own `default`.
      imports.push(
        `import * as ${binding}_module from "${runtimeDir}/${name}.js";\n` +
          `const ${binding} = ${binding}_module.default.default ?? ${binding}_module.default;`,
      );
    }
    return binding;
  });
  if (/\brequire\(/.test(esm))
    throw new Error("ajv's standalone code requires a module this build does not turn into an import");
  return (
    `${imports.join("\n")}\n${esm.replace(/^"use strict";/, "")}\n` +
    `export const SETTINGS_AJV_OPTIONS = ${JSON.stringify(options)};\n` +
    `export function compileSettingsValidator() { return validate; }\n`
  );
}
