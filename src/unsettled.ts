// Writes whose outcome was unknown, remembered on disk so that running the same command again
// reuses their Idempotency-Key instead of paying twice (docs/scripting.md, "Network faults and retries"): a
// CI loop `until vmv email send ...; do sleep 1; done` after a lost reply makes each run a new
// request otherwise, and each may be charged. One small file per request in the user's state
// directory (paths.ts), named by a hash of the target, the API key's hash and the exact request;
// it holds the key, never the API key or the body. Written atomically (a temporary file renamed),
// 0600 in a 0700 folder, no lock: processes in parallel each write whole files, the last rename
// wins. Kept 24 hours (the service's idempotency window), at most MAX_ENTRIES files.
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { stateDir, type Env } from './paths.js';

/** The service keeps a key's reply 24 hours from its first success: a key is never kept longer here. */
export const UNSETTLED_TTL_MS = 24 * 3600_000;
/** Files kept at most (the oldest go first): a bound whatever a script does. */
export const MAX_ENTRIES = 500;
/** A temporary file older than this was left by a process that died while writing: removed. */
const STALE_TMP_MS = 3600_000;

/** A request whose outcome was unknown: the key its command's writes were sent with. */
export interface Unsettled {
  /** the Idempotency-Key of the command's first write (its n-th write had KEY-n) */
  key: string;
  /** the number of the command's last write whose outcome was unknown: forgotten once it, or a later one, is answered */
  writes: number;
  /** when it was first remembered (ISO 8601, this machine's clock) */
  created_at: string;
  /** METHOD /path, for a person reading the folder */
  request: string;
}

const sha256 = (v: string | Buffer) => createHash('sha256').update(v).digest('hex');

/** What names a request: where it goes, as whom (a hash of the API key), and exactly what is sent. */
export interface RequestIdentity {
  baseUrl: string;
  apiKey: string | null;
  method: string;
  /** the path and query */
  path: string;
  body: string | Buffer | undefined;
}

/** The file name of a request: one hash of its identity (the API key and the body hashed first). */
export const unsettledId = (r: RequestIdentity): string =>
  sha256(
    JSON.stringify(['vmv-unsettled-1', r.baseUrl, sha256(r.apiKey ?? ''), r.method, r.path, sha256(r.body ?? '')]),
  );

/** The remembered entry of one request, on disk. */
export class UnsettledWrite {
  constructor(
    private readonly env: Env,
    readonly id: string,
    readonly request: string,
  ) {}

  /** the folder (where the user has no home and sets no VMV_STATE_DIR, this throws: nothing is kept) */
  private get dir(): string {
    return join(stateDir(this.env), 'unsettled');
  }

  private get file(): string {
    return join(this.dir, `${this.id}.json`);
  }

  /** Its entry if one is kept and within 24 hours; an expired or unreadable one is none. */
  read(now = Date.now()): Unsettled | null {
    let e: Unsettled;
    try {
      e = JSON.parse(readFileSync(this.file, 'utf8')) as Unsettled;
    } catch {
      return null;
    }
    const age = now - Date.parse(e?.created_at);
    if (typeof e?.key !== 'string' || !Number.isInteger(e.writes) || !(age >= 0 && age < UNSETTLED_TTL_MS)) {
      this.forget();
      return null;
    }
    return e;
  }

  /** Keeps the entry (a whole file renamed into place), then bounds the folder. Throws what the disk says. */
  save(e: Unsettled): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, JSON.stringify(e));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    prune(this.dir, Date.now());
  }

  forget(): void {
    try {
      unlinkSync(this.file);
    } catch {
      // gone already (another process forgot it), or never kept
    }
  }
}

/** Removes expired entries, temporary files a dead process left, and the oldest past MAX_ENTRIES. */
export function prune(dir: string, now: number, max = MAX_ENTRIES): void {
  const kept: { path: string; at: number }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    let at: number;
    try {
      at = statSync(path).mtimeMs;
    } catch {
      continue; // removed meanwhile
    }
    const tmp = name.endsWith('.tmp');
    if ((tmp && now - at > STALE_TMP_MS) || (!tmp && now - at >= UNSETTLED_TTL_MS)) remove(path);
    else if (!tmp) kept.push({ path, at });
  }
  kept.sort((a, b) => a.at - b.at);
  for (const { path } of kept.slice(0, Math.max(0, kept.length - max))) remove(path);
}

function remove(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // another process removed it first
  }
}
