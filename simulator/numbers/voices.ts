// The voices a number can speak with, by stack (GET /v1/phone-numbers/{id}/voices; voice.voice_id
// takes their ids): a t2 number has HD voices a t1 number lacks, and the two share a few.
import * as z from 'zod/mini';
import { doc, named, oneOf, record, type Infer } from '../core/schema.js';
import { stackSchema, type Stack } from './config.js';

/** A voice a number can speak with (GET /v1/phone-numbers/{id}/voices). */
export const VoiceSchema = named(
  'Voice',
  () =>
    record({
      id: doc(z.string(), { description: 'what voice.voice_id takes', example: 'ava' }),
      name: doc(z.string(), { example: 'Ava' }),
      language: doc(z.string(), { example: 'en-US' }),
      gender: oneOf(['female', 'male']),
      stack: stackSchema(),
      preview_url: doc(z.string(), {
        description: 'path of a short audio sample (audio/wav)',
        example: '/_sim/voices/ava.wav',
      }),
    }),
  "A voice of a number's stack.",
);

/** Voices each stack can speak with. */
export const VOICES: Record<Stack, Omit<Infer<typeof VoiceSchema>, 'stack' | 'preview_url'>[]> = {
  t1: [
    { id: 'ava', name: 'Ava', language: 'en-US', gender: 'female' },
    { id: 'noah', name: 'Noah', language: 'en-US', gender: 'male' },
    { id: 'isla', name: 'Isla', language: 'en-GB', gender: 'female' },
    { id: 'mateo', name: 'Mateo', language: 'es-ES', gender: 'male' },
  ],
  t2: [
    { id: 'ava', name: 'Ava', language: 'en-US', gender: 'female' },
    { id: 'noah', name: 'Noah', language: 'en-US', gender: 'male' },
    { id: 'aria-hd', name: 'Aria HD', language: 'en-US', gender: 'female' },
    { id: 'leo-hd', name: 'Leo HD', language: 'en-US', gender: 'male' },
    { id: 'lucia-hd', name: 'Lucía HD', language: 'es-MX', gender: 'female' },
    { id: 'amelie-hd', name: 'Amélie HD', language: 'fr-FR', gender: 'female' },
  ],
};
