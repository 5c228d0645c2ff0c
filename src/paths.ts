// Where vmv keeps its settings, the embedded simulator's data and its own state (XDG locations, overridable).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { usage } from './errors.js';

export type Env = Record<string, string | undefined>;

/**
 * The user's home directory. A user may have none (HOME unset and no account entry: an arbitrary
 * uid in a container, where os.homedir() throws): then a usage error naming what to set, printed
 * as any other, never a stack trace.
 */
function home(what: string, instead: string): string {
  try {
    return homedir();
  } catch {
    throw usage(
      `vmv has no home directory to keep ${what} in (HOME is not set, and this user has no account entry).`,
      `Set HOME, or ${instead}.`,
    );
  }
}

/** True when this user has a home directory (settings and data have a default place). */
export function hasHome(): boolean {
  try {
    homedir();
    return true;
  } catch {
    return false;
  }
}

export function configDir(env: Env): string {
  if (env.VMV_CONFIG_DIR) return env.VMV_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(home('its settings', 'VMV_CONFIG_DIR'), '.config'), 'vmv');
}

export const configFile = (env: Env) => join(configDir(env), 'config.json');

export function simDataFile(env: Env): string {
  if (env.VMV_SIM_DATA) return env.VMV_SIM_DATA;
  return join(
    env.XDG_DATA_HOME || join(home("the simulator's data", 'VMV_SIM_DATA'), '.local', 'share'),
    'vmv',
    'sim.json',
  );
}

/**
 * What vmv keeps between runs that is neither settings nor data: the keys of writes whose outcome
 * was unknown (src/unsettled.ts). VMV_STATE_DIR, else $XDG_STATE_HOME/vmv, else ~/.local/state/vmv.
 */
export function stateDir(env: Env): string {
  if (env.VMV_STATE_DIR) return env.VMV_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(home('its state', 'VMV_STATE_DIR'), '.local', 'state'), 'vmv');
}

/** simDataFile for a help text: what to set in its place when there is no home. */
export function simDataFileShown(env: Env): string {
  try {
    return simDataFile(env);
  } catch {
    return 'a file VMV_SIM_DATA names (this user has no home directory)';
  }
}
