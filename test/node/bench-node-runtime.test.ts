/**
 * The profiling harness's Durable Object stand-in (`scripts/bench/node-runtime/`): a stub
 * carries its object's `id`, as workerd's does. Without it the SSE route
 * (`core/streams/hub-route.ts`, `stub.id.toString()`) threw a TypeError on every watcher of
 * `scripts/bench/profile-node.ts`, and the profile read no SSE events.
 */
import { describe, expect, it } from "vitest";
import { Namespace } from "../../scripts/bench/node-runtime/durable-objects.ts";

describe("node-runtime Namespace stubs", () => {
  it("carry their id (not an RPC method), as workerd's stubs do", () => {
    const made: unknown[] = [];
    const ns = new Namespace(
      class {
        constructor() {
          made.push(this);
        }
      } as never,
      () => ({}),
    );
    const id = ns.idFromName("order-1");
    const stub = ns.get(id) as unknown as { id: { toString(): string } };
    expect(stub.id).toBe(id);
    expect(`order:${stub.id.toString()}`).toMatch(/^order:[0-9a-f]{64}$/);
    // Reading the id reaches no object: it is the stub's own.
    expect(made).toEqual([]);
  });
});
