// Where vmv keeps its settings and the embedded simulator's data (XDG locations, overridable).
import { homedir } from 'node:os';
import { join } from 'node:path';

export type Env = Record<string, string | undefined>;

export function configDir(env: Env): string {
  if (env.VMV_CONFIG_DIR) return env.VMV_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'vmv');
}

export const configFile = (env: Env) => join(configDir(env), 'config.json');

export function simDataFile(env: Env): string {
  if (env.VMV_SIM_DATA) return env.VMV_SIM_DATA;
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'vmv', 'sim.json');
}
