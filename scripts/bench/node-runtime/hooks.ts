/**
 * @module
 * Module hooks (`module.register`) that resolve `cloudflare:workers` to the Node stand-in
 * `cloudflare-workers.ts`. Profiling only (`scripts/bench/profile-node.ts`).
 */
const STUB = new URL("./cloudflare-workers.ts", import.meta.url).href;

export async function resolve(
  specifier: string,
  context: unknown,
  next: (s: string, c: unknown) => Promise<unknown>,
): Promise<unknown> {
  if (specifier === "cloudflare:workers") return { url: STUB, shortCircuit: true };
  return next(specifier, context);
}
