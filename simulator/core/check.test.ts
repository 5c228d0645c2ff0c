// A rule across a body's fields (check.ts requiredOf), written once: it is declared in the body's
// JSON schema (what the API description and the MCP tools show) and enforced with a reason on each
// of its fields, a field's earlier (structural) problem kept.
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { newFields, requiredOf } from './check.js';
import { obj, str } from './schema.js';

const schemaOf = (kind: 'anyOf' | 'oneOf') =>
  z.toJSONSchema(requiredOf(kind, ['a', 'b']).on(obj({ a: str(), b: str() })), { target: 'draft-2020-12' });

describe('requiredOf declares its rule in the JSON schema', () => {
  it.each(['anyOf', 'oneOf'] as const)('%s of the fields, each required', (kind) =>
    expect(schemaOf(kind)[kind]).toEqual([{ required: ['a'] }, { required: ['b'] }]),
  );
});

// biome-ignore format: a table, its columns aligned
const CASES: ['anyOf' | 'oneOf', Record<string, unknown>, Record<string, string>][] = [
  ['anyOf', {},                   { a: 'a or b is required', b: 'a or b is required' }],
  ['anyOf', { a: 'x' },           {}],
  ['anyOf', { a: 'x', b: 'y' },   {}],
  ['anyOf', { a: null },          {}],
  ['oneOf', {},                   { a: 'send either a or b', b: 'send either a or b' }],
  ['oneOf', { b: 'y' },           {}],
  ['oneOf', { a: 'x', b: 'y' },   { a: 'send either a or b', b: 'send either a or b' }],
];

describe('requiredOf enforces it: a reason on each field when broken', () => {
  it.each(CASES)('%s %j', (kind, value, fields) => {
    const errs = newFields();
    requiredOf(kind, ['a', 'b']).check(value, errs);
    expect({ ...errs }).toEqual(fields);
  });
  it("keeps a field's earlier problem", () => {
    const errs = newFields();
    errs.a = 'must be a string, got number';
    requiredOf('oneOf', ['a', 'b']).check({ a: 1, b: 'y' }, errs);
    expect({ ...errs }).toEqual({ a: 'must be a string, got number', b: 'send either a or b' });
  });
});
