/**
 * @module
 * `SerialLane`: the one queue of a Durable Object through which everything that reads or
 * writes upstream state runs (webhook refetches, currency locks, retries, refund bookkeeping,
 * payout quotes and commits, reconciliation reads).
 *
 * Invariant: at most one task of a lane runs at a time, in the order they were queued. A
 * Durable Object's input gate opens while it awaits the service, so without the lane a slow
 * read could land after a newer one was applied, two locks could race, or a retry could work
 * out what is due while a payment is being applied. With it, every task sees the effects of
 * every task queued before it, and nothing else of the object's upstream state changes while
 * it awaits. A task that throws does not stop the lane.
 *
 * A task must never queue another task on the same lane and await it (that would wait for
 * itself): public methods enter the lane once; what they call inside does not.
 */

/** One object's serial queue of upstream work. */
export class SerialLane {
  #tail: Promise<unknown> = Promise.resolve();

  /**
   * Runs `task` after every task queued before it settled; resolves or rejects as it does.
   *
   * @example
   * const lane = new SerialLane();
   * const snapshot = await lane.run(() => this.#refetchAndApply(invoiceId));
   */
  run<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(task, task);
    this.#tail = run.catch(() => {});
    return run;
  }
}
