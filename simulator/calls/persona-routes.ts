// The personas of the control plane: PUT, GET, DELETE /_sim/personas/{number} and GET /_sim/personas
// (built-ins included, marked). A persona is the world's, for every workspace (the person behind a
// number is the same whoever calls); the body is the persona document itself, checked by its one
// schema, so a bad file gets every problem at once by field path and nothing changes.
import * as z from 'zod/mini';
import { iso } from '../core/clock.js';
import { ApiError, notFound } from '../core/errors.js';
import { route, type Resource } from '../core/http.js';
import { bool, dataOf, e164, named, nullable, obj, record, str, timestamp } from '../core/schema.js';
import {
  BUILTINS,
  builtinFor,
  builtinPersona,
  MAX_PERSONA_BYTES,
  MAX_PERSONAS,
  PersonaSchema,
  type StoredPersona,
} from './persona.js';

const Entry = named(
  'PersonaEntry',
  () =>
    record({
      number: nullable(e164({ description: 'the number it is set for; null for a built-in' })),
      last_digits: nullable(
        str({ description: "a built-in's last four digits; null for a number's own and the built-in for any other" }),
      ),
      builtin: bool(
        'a built-in (the four-digit scripts): cannot be removed; setting a persona for a number overrides it',
      ),
      persona: PersonaSchema,
      updated_at: nullable(timestamp('when it was set; null for a built-in')),
    }),
  'A persona, set for a number or built in.',
);

const NumberParam = obj(
  { number: e164({ description: 'the E.164 number (its + encoded as %2B)' }) },
  { required: ['number'] },
);

const own = (p: StoredPersona) => ({
  number: p.number,
  last_digits: null,
  builtin: false,
  persona: p.persona,
  updated_at: p.updated_at,
});
const builtin = (b: (typeof BUILTINS)[number]) => ({
  number: null,
  last_digits: b.digits,
  builtin: true,
  persona: builtinPersona(b),
  updated_at: null,
});

const jsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

export const personas: Resource = {
  tag: {
    name: 'Personas',
    description:
      'How the person behind a number behaves on calls and texts: set for any number, or the built-ins by last four digits.',
  },
  routes: [
    route({
      method: 'GET',
      path: '/_sim/personas',
      summary: 'Every persona',
      description:
        'The personas set for numbers, by number, then the built-ins (the four-digit scripts, and the one for any other number), marked `builtin`.',
      responses: { 200: { description: 'The personas', schema: dataOf(z.array(Entry)) } },
      handler: (c) => {
        const set = [...c.data.personas].sort((a, b) => (a.number < b.number ? -1 : 1)).map(own);
        return { body: { data: [...set, ...BUILTINS.map(builtin)] } };
      },
    }),
    route({
      method: 'GET',
      path: '/_sim/personas/{number}',
      summary: 'The persona that applies to a number',
      description:
        "The number's own persona, else the built-in of its last four digits (marked `builtin`): its `persona` is a document PUT accepts.",
      params: NumberParam,
      responses: { 200: { description: 'The persona', schema: dataOf(Entry) } },
      handler: (c) => {
        const set = c.data.personas.find((p) => p.number === c.params.number);
        return { body: { data: set ? own(set) : builtin(builtinFor(c.params.number)) } };
      },
    }),
    route({
      method: 'PUT',
      path: '/_sim/personas/{number}',
      summary: "Set a number's persona",
      description:
        "From now on, calls and texts to the number meet this persona (calls already answered keep the course they were given). A part left out (call, text) behaves as the number's built-in. " +
        'Every problem of the document is listed at once, by field path, and nothing changes; a reset removes every persona. ' +
        `At most ${MAX_PERSONAS} numbers have a persona, ${MAX_PERSONA_BYTES / 1024 / 1024} MB of documents (as JSON) in all: past either, 409 \`personas_limit_exceeded\`.`,
      params: NumberParam,
      body: PersonaSchema,
      responses: { 200: { description: 'The persona as set', schema: dataOf(Entry) } },
      errors: { 409: ['personas_limit_exceeded'] },
      handler: (c) => {
        const { number } = c.params;
        const others = c.data.personas.filter((p) => p.number !== number);
        if (others.length >= MAX_PERSONAS)
          throw new ApiError(
            409,
            'personas_limit_exceeded',
            `At most ${MAX_PERSONAS} numbers have a persona; remove one first (DELETE /_sim/personas/{number}).`,
          );
        const bytes = jsonBytes(c.body);
        const held = others.reduce((sum, p) => sum + jsonBytes(p.persona), 0);
        if (held + bytes > MAX_PERSONA_BYTES)
          throw new ApiError(
            409,
            'personas_limit_exceeded',
            `The personas hold at most ${mb(MAX_PERSONA_BYTES)} as JSON in all: the others hold ${mb(held)} and this one is ${mb(bytes)}; remove one first (DELETE /_sim/personas/{number}), or make it shorter.`,
          );
        const entry: StoredPersona = { number, persona: c.body, updated_at: iso(c.s.now) };
        c.data.personas = [...others, entry];
        c.s.markDirty();
        return { body: { data: own(entry) } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/_sim/personas/{number}',
      summary: "Remove a number's persona",
      description: 'The built-in of its last four digits applies again; 404 when the number has no persona of its own.',
      params: NumberParam,
      responses: { 204: { description: 'Removed' } },
      handler: (c) => {
        if (!c.data.personas.some((p) => p.number === c.params.number))
          throw notFound(`${c.params.number} has no persona of its own (its built-in applies).`);
        c.data.personas = c.data.personas.filter((p) => p.number !== c.params.number);
        c.s.markDirty();
        return { status: 204 };
      },
    }),
  ],
};
