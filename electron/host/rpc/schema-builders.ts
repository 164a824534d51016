/**
 * The few JSON Schema shapes TypeBox's own builders spell differently from the schemas ajv has
 * always checked (so its error texts, which the app quotes, stay the same): each is written here
 * once, with its TypeScript type derived from it like every `Type.*` builder's.
 */
import { Type, type Static, type TSchema, type TUnsafe } from "@sinclair/typebox";

/** `{type: "string", enum}`: ajv says "must be equal to one of the allowed values" (a Union would be anyOf). */
export const StringEnum = <const V extends readonly string[]>(values: V) =>
  Type.Unsafe<V[number]>({ type: "string", enum: [...values] });

/** `{enum}` with no `type`, as a few params are written. */
export const Enum = <const V extends readonly string[]>(values: V) =>
  Type.Unsafe<V[number]>({ enum: [...values] });

/**
 * A map: an object whose every value matches `value` (`additionalProperties`), its keys checked
 * by `propertyNames` when given (TypeBox's Record would use `patternProperties`).
 */
export const MapOf = <T extends TSchema>(value: T, keys?: TSchema) =>
  Type.Unsafe<Record<string, Static<T>>>({
    type: "object",
    ...(keys ? { propertyNames: keys } : {}),
    additionalProperties: value,
  });

/** `{type: "object"}`: any object, its fields checked later by whoever reads it. */
export const AnyObject = () => Type.Unsafe<Record<string, unknown>>({ type: "object" });

/**
 * A field whose type says more than its schema can (`narrowed(schema).to<T>()`), such as a union
 * the reader tells apart by a field, or a block checked against its own schema later: `T` must fit
 * the schema's type, so the two cannot disagree on a field's name, presence or base type.
 */
export const narrowed = <S extends TSchema>(schema: S) => ({
  to: <T extends Static<S>>() => schema as unknown as TUnsafe<T>,
});
