/**
 * How a method is declared once: its JSON Schema for params (checked by ajv in the router) and,
 * at the type level only, its params and result types (used by the router's handler table and the
 * renderer's client).
 */
export type JsonSchema = { readonly [key: string]: unknown };

export interface MethodSpec<P, R> {
  readonly params: JsonSchema;
  /** Phantom: carries the types, never set at run time. */
  readonly __types?: { params: P; result: R };
}

export const method = <P, R>(params: JsonSchema): MethodSpec<P, R> => ({ params });

/** `{}` params: an object with no properties. */
export const noParams: JsonSchema = { type: "object", additionalProperties: false, properties: {} };

export type EmptyParams = Record<string, never>;
