// The simulator run in-process by the CLI when no base URL is configured: the same request handler
// as `vmv sim serve`, on the same data file, so both targets behave alike.
import type { App } from './core/app.js';
import { StoreAccessError } from './store/snapshot.js';
import { NEEDS_LOCK, type WorldSession } from './core/session.js';
import { createApp, Store } from './world.js';

const open = new Map<string, { app: App; defaultApiKey(): Promise<string> }>();

export async function openEmbedded(file: string) {
  let sim = open.get(file);
  if (!sim) {
    const store = new Store(file);
    // a data file this process may not use is the command line's own problem (exit 2), not an API's
    // answer; due work a full disk keeps from being saved, the command tells from the reply's mark
    const app = createApp(store, [], { rethrow: (e) => e instanceof StoreAccessError, staleToldByReader: true });
    const key = async (ss: WorldSession) => (await ss.begin()).data.meta.default_api_key;
    sim = {
      app,
      defaultApiKey: async () => {
        const k = await store.withRead(key);
        return k === NEEDS_LOCK ? store.withLock(key) : k;
      },
    };
    open.set(file, sim);
  }
  return sim;
}
