/**
 * @module
 * Building blocks of the HTTP API's zod schemas (`worker/api/schemas/`): exact decimal
 * strings, the `{ data }` and page envelopes, the error body, and `Same<A, B>`, the type-level
 * check that ties each schema to its type in `worker/api/contract.ts` (so neither can drift).
 */
import * as z from "zod/mini";
import type { ApiErrorBody } from "../contract.ts";

/** An amount: a plain decimal string (`"49.90"`), never a JSON number. */
export const decimalString = z.string().check(z.regex(/^\d+(\.\d+)?$/));

/** True when A and B are assignable both ways (the schema's output is the contract's type). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** `{ data: T }`: every success body of the API. */
export const dataOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: schema });

/** `{ data: T[], nextCursor }`: one page of a list, newest first. */
export const pageOf = <T extends z.ZodMiniType>(schema: T) =>
  z.object({ data: z.array(schema), nextCursor: z.nullable(z.string()) });

/** `{ error: { code, message } }`: every error body. */
export const apiErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});

const errorBodyChecked: Same<z.output<typeof apiErrorSchema>, ApiErrorBody> = true;
void errorBodyChecked;
