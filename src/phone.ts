// Whether a phone number can exist, by libphonenumber's numbering plans (its small "min" metadata:
// lengths and number patterns per country). One definition for both sides: the CLI refuses such a
// number before sending (exit 2, naming the flag) and offers the E.164 form of a national number;
// the simulator's carrier fails a call or text to one with the carrier's reason, so a number the
// CLI lets through is one the simulator dials, and the reverse. Loaded only where numbers are
// checked: the CLI imports it when a command was given a number, the simulator when it dials.
import { createRequire } from 'node:module';
import {
  isSupportedCountry,
  isValidPhoneNumber,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
  type CountryCode,
  type MetadataJson,
} from 'libphonenumber-js/core';

let metadata: MetadataJson | undefined;
/**
 * The min metadata (84 KB of JSON), read on the first check instead of being bundled: the
 * simulator's one-file bundle is loaded by every embedded command, and carrying the metadata in it
 * cost every command its parse. The build copies it beside the bundle (dist/phone-metadata.json),
 * so an installed vmv needs no libphonenumber-js package at run time (issue 34: it was 13 MB of
 * every install); run from the sources (the tests' unit tables), it comes from the package.
 */
const meta = (): MetadataJson => (metadata ??= readMetadata());

function readMetadata(): MetadataJson {
  const load = createRequire(import.meta.url);
  try {
    return load('./phone-metadata.json') as MetadataJson;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    return load('libphonenumber-js/metadata.min.json') as MetadataJson;
  }
}

/** Why an E.164 number cannot exist, in the words of a message; null when it can. */
export type NumberProblem = {
  kind: 'too_short' | 'too_long' | 'invalid_length' | 'no_such_country' | 'no_such_number';
  words: string;
} | null;

const LENGTH_WORDS = {
  TOO_SHORT: ['too_short', 'has too few digits for its country'],
  TOO_LONG: ['too_long', 'has too many digits for its country'],
  INVALID_LENGTH: ['invalid_length', 'has a length no number of its country has'],
  INVALID_COUNTRY: ['no_such_country', 'starts with no country calling code'],
  NOT_A_NUMBER: ['no_such_country', 'is not a phone number'],
} as const;

/**
 * What is wrong with an E.164 number (+ and digits) by the numbering plans: its length for its
 * country, then whether any of its country's number patterns matches (+1 123… has no such area
 * code). The 555 numbers of the simulator's scenarios are real patterns, and pass.
 */
export function numberProblem(e164: string): NumberProblem {
  const length = validatePhoneNumberLength(e164, meta());
  if (length) {
    const [kind, words] = LENGTH_WORDS[length];
    return { kind, words };
  }
  if (!isValidPhoneNumber(e164, meta()))
    return { kind: 'no_such_number', words: 'matches no number range of its country' };
  return null;
}

/** A default_country setting that libphonenumber knows (two letters, any case), upper case; null if it is none. */
export function countryCode(raw: string): CountryCode | null {
  const c = raw.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(c) && isSupportedCountry(c as CountryCode, meta()) ? (c as CountryCode) : null;
}

/** The E.164 form of a number written as in `country` (415-555-0100, 020 7183 8750), if it is one that can exist. */
export function asE164(raw: string, country: CountryCode): string | null {
  const p = parsePhoneNumberFromString(raw, country, meta());
  return p?.isValid() ? p.number : null;
}
