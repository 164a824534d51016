/**
 * Compile-time test (checked by `tsc` in npm test's typecheck step) that a schema and its type
 * have one source: a method's params type is its schema's, and a narrowing that does not fit the
 * schema (a field it lacks the type of, one it requires made optional) does not compile.
 */
import { Type } from "@sinclair/typebox";
import type { ParamsOf } from "../../../electron/host/rpc/contract.js";
import { method, params } from "../../../electron/host/rpc/define.js";
import { narrowed } from "../../../electron/host/rpc/schema-builders.js";
import type { McpServerDocument, SettingsDocument } from "../../../electron/host/config/config-schema.js";
import type { PluginManifest } from "../../../electron/host/plugins/catalog/manifest.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const holds = <T extends true>(): T => true as T;

// Params are what the schema says: optional where it does not require, the enum's values, …
holds<Equal<ParamsOf<"session.create">, { title?: string }>>();
holds<Equal<ParamsOf<"session.export">["format"], "markdown" | "json">>();
holds<Equal<ParamsOf<"plugins.pageSession">["sessionId"], string | null>>();
// … and the documents too (a key only the schema has would show here).
holds<Equal<NonNullable<SettingsDocument["display"]>["theme"], "system" | "light" | "dark" | undefined>>();
holds<Equal<McpServerDocument["transport"], "streamable_http" | "sse" | undefined>>();
holds<Equal<PluginManifest["pages"][number], { id: string; title: string; entry: string }>>();

const schema = params({ id: Type.String(), note: Type.Optional(Type.String()) });
method(schema).narrowedTo<{ id: "a" | "b"; note: string }>(); // narrower: fine
// @ts-expect-error a field the schema requires, optional in the type
method(schema).narrowedTo<{ id?: string }>();
// @ts-expect-error a field of another type than the schema's
method(schema).narrowedTo<{ id: number }>();
narrowed(Type.String()).to<"x" | "y">(); // narrower: fine
// @ts-expect-error not a string
narrowed(Type.String()).to<number>();
