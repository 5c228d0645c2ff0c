// The browser the inspector's tests drive: Debian's chromium-headless-shell (what .ci/run installs),
// another Chromium named by VMV_CHROMIUM, or none (the tests are skipped, saying how to get one;
// on CI a missing browser fails instead). Driven by playwright-core, pinned with the browser it was
// tried with: chromium-headless-shell 150 and playwright-core 1.65.1.
import { existsSync } from 'node:fs';

const CANDIDATES = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
];

/** The Chromium to launch, or null. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.VMV_CHROMIUM) return existsSync(env.VMV_CHROMIUM) ? env.VMV_CHROMIUM : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

export const HOW_TO_GET_ONE =
  'inspector browser tests skipped: no Chromium found. Install one with `sudo apt-get install -y --no-install-recommends chromium-headless-shell` (Debian/Ubuntu), or set VMV_CHROMIUM to a Chromium binary.';
