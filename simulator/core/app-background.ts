// What outlives a request's unit of work in the request handler (app.ts): the work that follows a
// commit, run in the background (webhook deliveries) with a way to wait for it, and each request's
// signal, aborted when its client goes away or the app closes.
import type { AfterCommit, Transactor } from './http.js';
import type { World } from './world.js';

/** Work after a commit, run outside any transaction in the background (deliveries), and a way to wait for it. */
export function backgroundWork(hooks: readonly AfterCommit[], app: () => Transactor) {
  const pending = new Set<Promise<void>>();
  async function afterCommit(data: World): Promise<void> {
    for (const hook of hooks) {
      // the change is on disk whatever happens here: a hook's failure never fails the request
      await hook(app(), data).catch((e) => process.emitWarning(`vmv simulator: ${(e as Error)?.stack ?? String(e)}`));
    }
  }
  return {
    /** runs what follows the commit of `data` in the background */
    after(data: World): void {
      const work = afterCommit(data);
      pending.add(work);
      void work.finally(() => pending.delete(work));
    },
    async idle(): Promise<void> {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

/**
 * Each request's signal: aborted when its client goes away or when the app closes (a move under way
 * stops after its slice). One controller a request, dropped when it ends: AbortSignal.any over a
 * signal that lives as long as the app kept every request's combined signal (Node 20: about 2 KB a
 * request on a long-running server).
 */
export function stopper() {
  const under = new Set<AbortController>();
  let closed = false;
  return {
    /** a signal for the request `given` signals for, and `end` to call when it has answered */
    open(given?: AbortSignal): { signal: AbortSignal; end(): void } {
      const own = new AbortController();
      const stop = () => own.abort();
      if (closed || given?.aborted) stop();
      given?.addEventListener('abort', stop, { once: true });
      under.add(own);
      return {
        signal: own.signal,
        end: () => {
          under.delete(own);
          given?.removeEventListener('abort', stop);
        },
      };
    },
    close(): void {
      closed = true;
      for (const own of under) own.abort();
    },
  };
}
