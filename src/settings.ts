// Reading settings on the hot path: the profile file is plain JSON, so every command reads it with
// one readFileSync instead of loading conf (and ajv). Writes go through conf (config-store.ts).
import { readFileSync } from 'node:fs';
import { parseDuration } from './duration.js';
import { usage } from './errors.js';
import { configFile, simDataFile, type Env } from './paths.js';
import { DEFAULT_POLICY, DEFAULT_RETRIES, MAX_RETRIES } from './retry.js';

export interface Profile {
  base_url?: string;
  api_key?: string;
}
export interface SettingsFile {
  active_profile?: string;
  profiles?: Record<string, Profile>;
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function readSettings(env: Env): SettingsFile {
  try {
    const parsed = JSON.parse(readFileSync(configFile(env), 'utf8')) as SettingsFile;
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

export interface GlobalOptions {
  json?: boolean;
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  idempotencyKey?: string;
  retries?: number;
  requestTimeout?: string;
}

export interface Target {
  kind: 'remote' | 'embedded';
  /** without a trailing slash or /v1 */
  baseUrl: string | null;
  apiKey: string | null;
  profile: string;
  dataFile: string;
}

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
  return {
    kind: baseUrl ? 'remote' : 'embedded',
    baseUrl,
    apiKey: g.apiKey ?? env.VMV_API_KEY ?? p?.api_key ?? null,
    profile,
    dataFile: simDataFile(env),
  };
}

/** How the remote client waits and retries (README "Network faults and retries"). */
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
