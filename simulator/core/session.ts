// A unit of work on the simulated world: the data, the simulator's time and its seeded generator,
// and the store whose units of work hand one out (the store itself knows no world; this is where the
// request pipeline, the composition roots and the tests meet it).
import { NEEDS_LOCK, type StoreSchema } from '../store/schema.js';
import { Store } from '../store/store.js';
import type { StoreSession } from '../store/writer.js';
import { clockNow } from './clock.js';
import { Rng } from './rng.js';
import type { World } from './world.js';

/** One unit of work's view of the world: what a route, a transition or a fixture works with. */
export class Session {
  dirty = false;
  readonly rng: Rng;
  /** simulator time of this session; the scheduler moves it while running due transitions */
  now: number;

  constructor(readonly data: World) {
    this.rng = new Rng(data.meta.rng, () => (this.dirty = true));
    this.now = clockNow(data.meta.clock);
  }

  markDirty(): void {
    this.dirty = true;
  }

  nextSeq(): number {
    this.dirty = true;
    return this.data.meta.next_seq++;
  }
}

/** A locked (or read-only) unit of work on the world's store, begun as a Session. */
export class WorldSession {
  constructor(private readonly ss: StoreSession<World>) {}

  get locked(): boolean {
    return this.ss.locked;
  }

  get compromised(): boolean {
    return this.ss.compromised;
  }

  async begin(): Promise<Session> {
    return new Session(await this.ss.begin());
  }

  /** Journals what the session wrote (under the lock), and marks it saved. */
  async commit(s: Session): Promise<void> {
    await this.ss.commitChanges();
    s.dirty = false;
  }

  commitChanges(): Promise<void> {
    return this.ss.commitChanges();
  }

  rollback(): void {
    this.ss.rollback();
  }
}

/** The store of a world, whose units of work are Sessions (store/: store.ts, writer.ts and reader.ts do the work). */
export class WorldStore extends Store<World> {
  constructor(file: string | null, schema: StoreSchema<World>) {
    super(file, schema);
  }

  /** Runs fn with the store locked against this and every other process (Store.transact). */
  withLock<T>(fn: (s: WorldSession) => Promise<T>): Promise<T> {
    return this.transact((ss) => fn(new WorldSession(ss)));
  }

  /** Runs fn without the lock when it can (Store.peek): NEEDS_LOCK when it must run again under withLock. */
  withRead<T>(fn: (s: WorldSession) => Promise<T>): Promise<T | typeof NEEDS_LOCK> {
    return this.peek((ss) => fn(new WorldSession(ss)));
  }
}

export { NEEDS_LOCK };
