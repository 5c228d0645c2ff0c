// Writing settings: conf, with the file readable by its owner only (0600, in a 0700 folder).
// Loaded only by `vmv config` verbs that change something; reads use settings.ts.
import { chmodSync, mkdirSync } from 'node:fs';
import { configDir, type Env } from './paths.js';
import { EMBEDDED, PROFILE_NAME, readSettings, type Profile } from './settings.js';
import { usage } from './errors.js';

export const KEYS = ['base_url', 'api_key', 'default_country'] as const;
export type Key = (typeof KEYS)[number];

export async function openConfig(env: Env) {
  // a damaged file is refused as every command refuses it (conf would throw a bare SyntaxError)
  readSettings(env);
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const { default: Conf } = await import('conf');
  const conf = new Conf<{ active_profile?: string; profiles: Record<string, Profile> }>({
    cwd: dir,
    configName: 'config',
    projectName: 'vmv',
    configFileMode: 0o600,
    defaults: { profiles: {} },
  });
  return {
    path: conf.path,
    profiles: () => ({ ...conf.get('profiles') }),
    active: () => conf.get('active_profile') ?? 'default',
    setActive: (name: string) => conf.set('active_profile', checkName(name)),
    /** Sets a value; a new base URL takes its own key along (see retarget). */
    setValue(profile: string, key: Key, value: string): Retargeted | null {
      const all = { ...conf.get('profiles') };
      const p = { ...all[checkName(profile)] };
      const moved = key === 'base_url' ? retarget(p, value) : null;
      all[profile] = { ...p, [key]: value };
      conf.set('profiles', all);
      return moved;
    },
    unsetValue(profile: string, key: Key): Retargeted | null {
      const all = { ...conf.get('profiles') };
      if (!all[profile]) return null;
      const p = { ...all[profile] };
      const moved = key === 'base_url' ? retarget(p, null) : null;
      const { [key]: _gone, ...rest } = p;
      all[profile] = rest;
      conf.set('profiles', all);
      return moved;
    },
    deleteProfile(profile: string) {
      const all = { ...conf.get('profiles') };
      delete all[profile];
      conf.set('profiles', all);
      if (conf.get('active_profile') === profile) conf.delete('active_profile');
    },
  };
}

/** What changing a profile's base URL did with its keys: the key parked (set for the old target) and the one restored (set before for the new one). */
export interface Retargeted {
  parked: string | null;
  restored: boolean;
}

/**
 * Keys belong to the target they were set for: when a profile's base URL changes (or goes, leaving
 * the embedded simulator), its key is parked under the old target and the new target's key, if one
 * was set before, comes back. So a service's key is never sent to the embedded simulator or to
 * another URL, and switching back finds it again. Changes `p` in place.
 */
function retarget(p: Profile, to: string | null): Retargeted | null {
  const from = p.base_url ?? null;
  if (from === to) return null;
  const had = !!p.api_key;
  const parked = { ...p.api_keys };
  if (p.api_key) parked[from ?? EMBEDDED] = p.api_key;
  const back = parked[to ?? EMBEDDED];
  delete parked[to ?? EMBEDDED];
  if (back) p.api_key = back;
  else delete p.api_key;
  if (Object.keys(parked).length) p.api_keys = parked;
  else delete p.api_keys;
  return { parked: had ? (from ?? EMBEDDED) : null, restored: !!back };
}

function checkName(name: string): string {
  if (!PROFILE_NAME.test(name))
    throw usage(`"${name}" is not a usable profile name: letters, digits, _ . - (up to 64).`);
  return name;
}

export function checkKey(key: string): Key {
  const k = key.replace(/-/g, '_');
  if (!(KEYS as readonly string[]).includes(k)) throw usage(`Unknown setting "${key}": use ${KEYS.join(', ')}.`);
  return k as Key;
}

/** What a change of base URL did with the profile's keys, in a line for stderr. */
export function retargetNote(m: Retargeted, to: string | null): string {
  const name = (t: string | null) => (t === null || t === EMBEDDED ? 'the embedded simulator' : t);
  const parts: string[] = [];
  if (m.parked) parts.push(`The API key set for ${name(m.parked)} stays with it: it is not sent to ${name(to)}.`);
  if (m.restored) parts.push(`The API key set before for ${name(to)} is used again.`);
  else if (to !== null) parts.push('Set its key with `printf %s "$KEY" | vmv config set api_key -`.');
  return parts.join(' ');
}
