/**
 * @module
 * Building blocks of the HTTP API's zod schemas (`worker/lib/api/schemas/`): exact decimal
 * strings, the `{ data }` envelope, the error body, and `Same<A, B>`, the type-level
 * check that ties each schema to its type in `packages/contract/src/http-api.ts` (so neither can drift).
 */
import * as z from "zod/mini";
import type { ApiErrorBody } from "../../../../packages/contract/src/http-api.ts";

/** An amount: a plain decimal string (`"49.90"`), never a JSON number. */
export const decimalString = z.string().check(z.regex(/^\d+(\.\d+)?$/));

/** Every property of T, nested objects and arrays included, spelled out as one object type. */
type Flat<T> = T extends readonly (infer E)[]
  ? Flat<E>[]
  : T extends object
    ? { [K in keyof T]: Flat<T[K]> }
    : T;

/**
 * True when A and B are the same type: identical (the compiler's own identity test, after
 * flattening), so an optional field added to one side only also fails, which assignability
 * both ways would let through.
 */
export type Same<A, B> =
  (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false;

/** `{ data: T }`: every success body of the API. */
export const dataOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: schema });

/** `{ error: { code, message } }`: every error body. */
export const apiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});

// Assignable both ways: the contract's code is `ApiErrorCode | (string & {})`, a string.
type ErrorBody = z.output<typeof apiErrorSchema>;
const errorBodyChecked: [
  ErrorBody extends ApiErrorBody ? true : false,
  ApiErrorBody extends ErrorBody ? true : false,
] = [true, true];
void errorBodyChecked;
