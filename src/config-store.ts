// Writing settings: conf, with the file readable by its owner only (0600, in a 0700 folder).
// Loaded only by `vmv config` verbs that change something; reads use settings.ts.
import { chmodSync, mkdirSync } from 'node:fs';
import { configDir, type Env } from './paths.js';
import { PROFILE_NAME, type Profile } from './settings.js';
import { usage } from './errors.js';

export const KEYS = ['base_url', 'api_key'] as const;
export type Key = (typeof KEYS)[number];

export async function openConfig(env: Env) {
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
    setValue(profile: string, key: Key, value: string) {
      const all = { ...conf.get('profiles') };
      all[checkName(profile)] = { ...all[profile], [key]: value };
      conf.set('profiles', all);
    },
    unsetValue(profile: string, key: Key) {
      const all = { ...conf.get('profiles') };
      if (!all[profile]) return;
      const { [key]: _gone, ...rest } = all[profile];
      all[profile] = rest;
      conf.set('profiles', all);
    },
    deleteProfile(profile: string) {
      const all = { ...conf.get('profiles') };
      delete all[profile];
      conf.set('profiles', all);
      if (conf.get('active_profile') === profile) conf.delete('active_profile');
    },
  };
}

function checkName(name: string): string {
  if (!PROFILE_NAME.test(name))
    throw usage(`"${name}" is not a usable profile name: letters, digits, _ . - (up to 64).`);
  return name;
}

export function checkKey(key: string): Key {
  const k = key.replace(/-/g, '_');
  if (!(KEYS as readonly string[]).includes(k)) throw usage(`Unknown setting "${key}": use ${KEYS.join(' or ')}.`);
  return k as Key;
}
