// Reading settings on the hot path: the profile file is plain JSON, so every command reads it with
// one readFileSync instead of loading conf (and ajv). Writes go through conf (config-store.ts).
import { readFileSync } from 'node:fs';
import { parseDuration } from './duration.js';
import { usage } from './errors.js';
import { configFile, hasHome, simDataFile, type Env } from './paths.js';
import { DEFAULT_POLICY, DEFAULT_RETRIES, MAX_RETRIES } from './retry.js';

export interface Profile {
  base_url?: string;
  /** the key of the profile's target: of `base_url`, or of the embedded simulator when there is none */
  api_key?: string;
  /**
   * keys set for the profile's other targets, by base URL (EMBEDDED: the embedded simulator): a key
   * is parked here when its base URL is changed or unset, and comes back with it, so a key is only
   * ever sent to the target it was set for
   */
  api_keys?: Record<string, string>;
  /** the country a phone number written without + is read in (two letters; default US) */
  default_country?: string;
}

/** The name under which a profile keeps a key set for the embedded simulator (no base URL). */
export const EMBEDDED = 'embedded';

/** The key a profile keeps for a target (its base URL, or null for the embedded simulator), if any. */
export function profileKeyFor(p: Profile | undefined, baseUrl: string | null): string | undefined {
  if (!p) return undefined;
  if ((p.base_url ?? null) === baseUrl) return p.api_key;
  return p.api_keys?.[baseUrl ?? EMBEDDED];
}
export interface SettingsFile {
  active_profile?: string;
  profiles?: Record<string, Profile>;
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * The settings file, or none when it does not exist. Anything else that keeps it from being read
 * (cut short, not JSON, not the shape vmv writes, unreadable) stops the command with a usage error
 * naming the file: read as "no settings", a damaged file would quietly send every command to the
 * embedded simulator, and a user who set a base URL would take simulated successes for real ones.
 */
export function readSettings(env: Env): SettingsFile {
  // with no home and no folder named, there is no settings file to read: no settings (writing one
  // says what to set)
  if (!env.VMV_CONFIG_DIR && !env.XDG_CONFIG_HOME && !hasHome()) return {};
  const file = configFile(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    throw unreadableSettings(file, code ?? (e as Error).message);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw damagedSettings(file, `it is not valid JSON (${(e as Error).message})`);
  }
  const problem = settingsProblem(parsed);
  if (problem) throw damagedSettings(file, problem);
  return parsed as SettingsFile;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What in a parsed settings file is not the shape vmv writes (the first thing found), or null. */
export function settingsProblem(v: unknown): string | null {
  if (!isObject(v)) return 'it does not hold a JSON object';
  if (v.active_profile !== undefined && typeof v.active_profile !== 'string') return 'active_profile is not a string';
  if (v.profiles === undefined) return null;
  if (!isObject(v.profiles)) return 'profiles is not an object';
  for (const [name, p] of Object.entries(v.profiles)) {
    if (!isObject(p)) return `profiles.${name} is not an object`;
    for (const k of ['base_url', 'api_key', 'default_country'])
      if (p[k] !== undefined && typeof p[k] !== 'string') return `profiles.${name}.${k} is not a string`;
    if (p.api_keys === undefined) continue;
    if (!isObject(p.api_keys) || Object.values(p.api_keys).some((k) => typeof k !== 'string'))
      return `profiles.${name}.api_keys is not an object of strings`;
  }
  return null;
}

/** A settings file that exists but cannot be used: exit 2, naming the file and how to mend it. */
const damagedSettings = (file: string, why: string) =>
  usage(
    `The settings file ${file} is damaged: ${why}. vmv will not guess the target (or API key) without it.`,
    `Correct the file, or move it aside (mv '${file}' '${file}.damaged') and set your settings again with \`vmv config set\` (VMV_CONFIG_DIR or XDG_CONFIG_HOME choose another folder).`,
  );

/** A settings file (or its folder) this user may not read: whether it holds a base URL is unknown, so it stops too. */
const unreadableSettings = (file: string, code: string) =>
  usage(
    `The settings file ${file} cannot be read (${code}). vmv will not guess the target (or API key) without it.`,
    `Give this user read access to it, or choose another folder with VMV_CONFIG_DIR or XDG_CONFIG_HOME.`,
  );

export interface GlobalOptions {
  json?: boolean;
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  idempotencyKey?: string;
  /** a write is sent as a new request, not with the key kept from an earlier run whose outcome was unknown */
  newRequest?: boolean;
  retries?: number;
  requestTimeout?: string;
  /** tables show every value whole on a terminal */
  wide?: boolean;
}

export interface Target {
  kind: 'remote' | 'embedded';
  /** without a trailing slash or /v1 */
  baseUrl: string | null;
  apiKey: string | null;
  profile: string;
  dataFile: string;
  /** where the base URL and the key came from, for messages: `--api-key`, `VMV_API_KEY`, `profile "x"` */
  baseUrlFrom?: string | null;
  apiKeyFrom?: string | null;
  /** the profile's key that was not sent because it belongs to another target (that target), for messages */
  otherKeyFor?: string;
  /** VMV_SIM_CONTROL_TOKEN: sent on /_sim requests to a simulator bound beyond its machine (docs/simulator.md) */
  controlToken?: string;
}

/** A target in words: "the embedded simulator (FILE)" or its base URL. */
export const describeTarget = (t: Target) =>
  t.kind === 'embedded' ? `the embedded simulator (${t.dataFile})` : (t.baseUrl as string);

/** Flags win over environment variables, which win over the profile; no base URL means the embedded simulator. */
export function resolveTarget(g: GlobalOptions, rawEnv: Env): Target {
  // an empty variable (VMV_API_KEY=) is unset, not an empty key
  const env = Object.fromEntries(Object.entries(rawEnv).filter(([, v]) => v !== '')) as Env;
  const settings = readSettings(env);
  const explicit = g.profile ?? env.VMV_PROFILE;
  const profile = explicit ?? settings.active_profile ?? 'default';
  const p = Object.hasOwn(settings.profiles ?? {}, profile) ? settings.profiles![profile] : undefined;
  if (explicit && !p && explicit !== 'default')
    throw usage(
      `No profile named "${explicit}".`,
      'List profiles with `vmv config list`; create one with `vmv config set base_url URL --profile NAME`.',
    );
  const rawBase = g.baseUrl ?? env.VMV_BASE_URL ?? p?.base_url ?? null;
  const baseUrl = rawBase ? normalizeBaseUrl(rawBase) : null;
  const fromProfile = `profile "${profile}"`;
  const baseUrlFrom = first([g.baseUrl, '--base-url'], [env.VMV_BASE_URL, 'VMV_BASE_URL'], [p?.base_url, fromProfile]);
  // a profile's key goes only to the target it was set for (docs/terminal.md, "Settings and API keys")
  const profileKey = profileKeyFor(p, baseUrl);
  const apiKey = g.apiKey ?? env.VMV_API_KEY ?? profileKey ?? null;
  const t: Target = {
    kind: baseUrl ? 'remote' : 'embedded',
    baseUrl,
    apiKey,
    profile,
    dataFile: simDataFile(env),
    baseUrlFrom,
    apiKeyFrom: first([g.apiKey, '--api-key'], [env.VMV_API_KEY, 'VMV_API_KEY'], [profileKey, fromProfile]),
    ...(env.VMV_SIM_CONTROL_TOKEN ? { controlToken: env.VMV_SIM_CONTROL_TOKEN } : {}),
  };
  if (!apiKey && p) {
    // the profile's keys for other targets, named in messages (none is sent here)
    const others = [...(p.api_key ? [p.base_url ?? EMBEDDED] : []), ...Object.keys(p.api_keys ?? {})];
    if (others.length) t.otherKeyFor = others.map((o) => (o === EMBEDDED ? 'the embedded simulator' : o)).join(' and ');
  }
  return t;
}

/** The name of the first source that gives a value. */
function first(...sources: [string | undefined, string][]): string | null {
  return sources.find(([v]) => v !== undefined)?.[1] ?? null;
}

/** How the remote client waits and retries (docs/scripting.md, "Network faults and retries"). */
export interface NetSettings {
  /** retries after a failed attempt, where safe (--retries, VMV_MAX_RETRIES) */
  retries: number;
  /** how long an attempt waits for its reply, and between parts of it (--request-timeout, VMV_REQUEST_TIMEOUT) */
  requestTimeoutMs: number;
  /** the first retry's backoff limit (VMV_RETRY_BASE_MS: a knob for tests, so they never wait long) */
  retryBaseMs: number;
}

export const DEFAULT_REQUEST_TIMEOUT_S = 60;

/** The network settings: flags over environment variables over the defaults; a bad value is a usage error naming its source. */
export function resolveNet(g: GlobalOptions, env: Env): NetSettings {
  const whole = (name: string, v: string | undefined, max: number): number | undefined => {
    if (v === undefined || v === '') return undefined;
    if (!/^\d+$/.test(v) || Number(v) > max)
      throw usage(`${name} must be a whole number from 0 to ${max}, got "${v}".`);
    return Number(v);
  };
  const timeout = resolveRequestTimeout(g, env);
  return {
    retries: g.retries ?? whole('VMV_MAX_RETRIES', env.VMV_MAX_RETRIES, MAX_RETRIES) ?? DEFAULT_RETRIES,
    requestTimeoutMs: timeout,
    retryBaseMs: whole('VMV_RETRY_BASE_MS', env.VMV_RETRY_BASE_MS, 60_000) ?? DEFAULT_POLICY.baseMs,
  };
}

/** The request timeout (ms): --request-timeout over VMV_REQUEST_TIMEOUT (when not empty) over the default. */
function resolveRequestTimeout(g: GlobalOptions, env: Env): number {
  if (g.requestTimeout !== undefined) return requestTimeoutMs('--request-timeout', g.requestTimeout);
  if (env.VMV_REQUEST_TIMEOUT) return requestTimeoutMs('VMV_REQUEST_TIMEOUT', env.VMV_REQUEST_TIMEOUT);
  return DEFAULT_REQUEST_TIMEOUT_S * 1000;
}

/** A request timeout given as a duration (30, 90s, 5m): more than 0. */
export function requestTimeoutMs(name: string, raw: string): number {
  let s: number;
  try {
    s = parseDuration(raw);
  } catch (e) {
    throw usage(`${name}: ${(e as Error).message}`);
  }
  if (!(s > 0)) throw usage(`${name} must be more than 0, e.g. 30s or 5m.`);
  return s * 1000;
}

export function normalizeBaseUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw usage(`The base URL "${raw}" is not a URL.`, 'Use a full URL such as http://127.0.0.1:4010.');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw usage(`The base URL must use http or https, not ${u.protocol}`);
  return u.toString().replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** An API key shown safely: its kind prefix and last four characters. */
export function maskKey(key: string | null | undefined): string {
  if (!key) return '(none)';
  if (key.length <= 12) return '…' + key.slice(-2);
  const prefix = key.startsWith('sk_') ? key.slice(0, key.indexOf('_', 3) + 1 || 3) : '';
  return `${prefix}…${key.slice(-4)}`;
}

/**
 * The country a number written without + is read in: VMV_DEFAULT_COUNTRY, else the profile's
 * default_country, else US (an unknown one is refused where it is set: vmv config set).
 */
export function resolveCountry(rawEnv: Env, profileFlag?: string): string {
  const env = Object.fromEntries(Object.entries(rawEnv).filter(([, v]) => v !== '')) as Env;
  const settings = readSettings(env);
  const profile = profileFlag ?? env.VMV_PROFILE ?? settings.active_profile ?? 'default';
  return env.VMV_DEFAULT_COUNTRY ?? settings.profiles?.[profile]?.default_country ?? 'US';
}
