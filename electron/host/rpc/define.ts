/**
 * How a method is declared once: its params schema, written with TypeBox, is the JSON Schema ajv
 * checks in the router and, through `Static`, the params type the handler table and the
 * renderer's client use, so the two cannot drift. The result type is named beside it (answers
 * are not checked by a schema).
 */
import { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";

export interface MethodSpec<P, R> {
  readonly params: TSchema;
  /** Phantom: carries the types, never set at run time. */
  readonly __types?: { params: P; result: R };
}

/** `method(schema).returns<Result>()`; the params type is the schema's. */
export function method<S extends TSchema>(params: S) {
  return {
    returns: <R>(): MethodSpec<Static<S>, R> => ({ params }),
    /**
     * For params a schema says less exactly than a type can (shapes its `if/then/else` picks, a
     * value whose type follows its key): `P` must fit the schema's type, field by field, so the
     * two still cannot disagree on a field's name, presence or base type.
     */
    narrowedTo: <P extends Static<S>>() => ({ returns: <R>(): MethodSpec<P, R> => ({ params }) }),
  };
}

/** Params as an object that refuses unknown fields (`additionalProperties: false`). */
export const params = <P extends Record<string, TSchema>>(properties: P): TObject<P> =>
  Type.Object(properties, { additionalProperties: false });

export type EmptyParams = Record<string, never>;

/** `{}` params: an object with no properties. */
export const noParams = Type.Unsafe<EmptyParams>({
  type: "object",
  additionalProperties: false,
  properties: {},
});
