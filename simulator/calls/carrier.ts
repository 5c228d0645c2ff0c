// The simulated carrier's inventory for GET /v1/phone-numbers/search: deterministic (derived from
// a hash of the query, never from the seeded stream, so a search changes nothing and repeats).
import { createHash } from 'node:crypto';

export const NUMBER_TYPES = ['local', 'tollFree', 'mobile', 'national'] as const;
export type NumberType = (typeof NUMBER_TYPES)[number];
export const COUNTRIES = ['US', 'CA'] as const;
export const TOLL_FREE = ['800', '833', '844', '855', '866', '877', '888'];

const AREAS: Record<(typeof COUNTRIES)[number], Record<string, [string, string]>> = {
  US: {
    '206': ['Seattle', 'WA'],
    '212': ['New York', 'NY'],
    '303': ['Denver', 'CO'],
    '305': ['Miami', 'FL'],
    '312': ['Chicago', 'IL'],
    '404': ['Atlanta', 'GA'],
    '415': ['San Francisco', 'CA'],
    '512': ['Austin', 'TX'],
    '617': ['Boston', 'MA'],
    '702': ['Las Vegas', 'NV'],
  },
  CA: {
    '416': ['Toronto', 'ON'],
    '514': ['Montreal', 'QC'],
    '604': ['Vancouver', 'BC'],
    '403': ['Calgary', 'AB'],
    '613': ['Ottawa', 'ON'],
  },
};

/** Numbers per area code the carrier has free. */
const STOCK = 12;

export interface Available {
  phone_number: string;
  locality: string;
  region: string;
  features: string[];
}

export function isKnownArea(country: (typeof COUNTRIES)[number], area: string): boolean {
  return Object.hasOwn(AREAS[country], area);
}

export function inventory(
  country: (typeof COUNTRIES)[number],
  type: NumberType,
  area: string | undefined,
): Available[] {
  const features = type === 'local' || type === 'mobile' ? ['voice', 'sms', 'mms'] : ['voice', 'sms'];
  const areas = areasSearched(country, type, area);
  const out: Available[] = [];
  for (const a of areas) {
    const [locality, region] = type === 'tollFree' ? ['Toll-free', country] : AREAS[country][a];
    for (let i = 0; i < STOCK; i++) {
      const h = createHash('sha256').update(`${country}|${type}|${a}|${i}`).digest();
      const exchange = 200 + (h.readUInt16BE(0) % 800);
      const line = String(h.readUInt16BE(2) % 10_000).padStart(4, '0');
      out.push({ phone_number: `+1${a}${exchange}${line}`, locality, region, features });
    }
  }
  return out;
}

/** The area codes a search covers: the one asked for (a local one only if the carrier has it), else all of the type. */
function areasSearched(country: (typeof COUNTRIES)[number], type: NumberType, area: string | undefined): string[] {
  if (type === 'tollFree') return area ? [area] : TOLL_FREE;
  if (!area) return Object.keys(AREAS[country]);
  return isKnownArea(country, area) ? [area] : [];
}
