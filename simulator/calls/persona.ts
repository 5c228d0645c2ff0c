// A persona: how the person behind a number behaves (docs/personas.md,
// "Personas: the person behind any number"), as one document validated by one schema (its field
// paths in a 400, its entry in /_sim/openapi.json, its TypeScript type). The eight four-digit
// scripts are built-in personas written in the same format (so they are examples too); a persona
// set for a number (PUT /_sim/personas/{number}) is kept in the world for every workspace, travels
// in an export and is emptied by a reset.
import { CALL_TAGS } from '../history/index.js';
import { arr, int, named, obj, oneOf, str, type Infer } from '../core/schema.js';
import type { World } from '../core/world.js';

/** What an attempt to call the number meets. */
export const ATTEMPT_RESULTS = ['answer', 'no_answer', 'busy', 'voicemail', 'fails'] as const;
/** How an answered call ends. */
export const CALL_OUTCOMES = ['goal_achieved', 'declined', 'callback', 'hangs_up'] as const;

/** Simulated seconds of ringing before each attempt result, when a persona does not say. */
export const RING_SECONDS: Record<(typeof ATTEMPT_RESULTS)[number], number> = {
  answer: 6,
  no_answer: 30,
  voicemail: 20,
  busy: 2,
  fails: 3,
};

export const PROVIDER_CALL_ERROR = 'SIP 503 Service Unavailable: the carrier rejected the call (simulated)';

const Attempt = () =>
  obj(
    {
      result: oneOf(ATTEMPT_RESULTS, 'what this attempt meets'),
      ring_seconds: int({
        min: 0,
        max: 600,
        example: 6,
        description: 'seconds of ringing before it (default: answer 6, no_answer 30, voicemail 20, busy 2, fails 3)',
      }),
      error: str({ min: 1, max: 500, description: "result fails: the provider's error text (the call's end_reason)" }),
    },
    { required: ['result'] },
  );

const Line = () =>
  obj(
    {
      says: str({ min: 1, max: 1000, description: 'the words', example: 'Could we move it to Thursday?' }),
      pause_seconds: int({
        min: 0,
        max: 600,
        example: 1,
        description:
          'silence before the person says it, after the turn before ends (default 1; unused with talk_seconds)',
      }),
    },
    { required: ['says'] },
  );

const CallPart = () =>
  obj(
    {
      attempts: arr(Attempt(), {
        min: 1,
        max: 20,
        description:
          "what each attempt meets, in order (a quick job's first attempt, its retries...); the last repeats",
      }),
      lines: arr(Line(), {
        min: 1,
        max: 50,
        description:
          "once answered, the person's lines in order; the agent answers each (its side drawn from the job's goal, instructions and opening message)",
      }),
      outcome: oneOf(CALL_OUTCOMES, 'how the conversation ends (default goal_achieved)'),
      hang_up_after_seconds: int({
        min: 1,
        max: 7200,
        example: 12,
        description:
          'the person hangs up this long after answering, whatever was planned (the goal is then not achieved)',
      }),
      talk_seconds: int({
        min: 1,
        max: 7200,
        description:
          "the conversation's length, its turns spread evenly over it (the built-ins' timing); without it each turn lasts 0.4 s a word (at least 1.5 s)",
      }),
      summary: str({ min: 1, max: 2000, description: "the AI review's summary when the call ran its course" }),
      tags: arr(oneOf(CALL_TAGS), { max: CALL_TAGS.length, unique: true, description: "the AI review's tags" }),
    },
    { required: ['attempts'] },
  );

const Reply = () =>
  obj(
    {
      says: str({ min: 1, max: 1600, description: 'the words (an opt-out word alone, such as STOP, opts out)' }),
      after_seconds: int({
        min: 0,
        max: 30 * 86_400,
        example: 120,
        description: "how long after the agent's message it answers",
      }),
    },
    { required: ['says', 'after_seconds'] },
  );

const TextPart = () =>
  obj(
    {
      delivery: oneOf(['delivered', 'fails'], "whether texts to the number are delivered (fails: the carrier's error)"),
      replies: arr(Reply(), {
        max: 20,
        description:
          "the person's replies in order: the first answers the opener, each next one the agent's next message; none: silence",
      }),
    },
    { required: ['replies'] },
  );

export const PersonaSchema = named(
  'Persona',
  () =>
    obj({
      name: str({ min: 1, max: 200, example: 'Moves it to Thursday' }),
      description: str({ max: 2000 }),
      call: CallPart(),
      text: TextPart(),
    }),
  {
    description:
      "How the person behind a number behaves on calls and texts. A part left out behaves as the built-in persona of the number's last four digits.",
    example: {
      name: 'Moves it to Thursday',
      call: {
        attempts: [{ result: 'answer', ring_seconds: 4 }],
        lines: [{ says: 'Hello?' }, { says: 'Could we move it to Thursday?', pause_seconds: 2 }, { says: 'Great.' }],
        outcome: 'goal_achieved',
      },
      text: { replies: [{ says: 'Thursday works better. What time?', after_seconds: 60 }] },
    },
  },
);

export type Persona = Infer<typeof PersonaSchema>;
export type CallPersona = NonNullable<Persona['call']>;
export type TextPersona = NonNullable<Persona['text']>;

/** A persona set for a number, as the world keeps it. */
export interface StoredPersona {
  number: string;
  persona: Persona;
  updated_at: string;
}

declare module '../core/world.js' {
  interface World {
    personas: StoredPersona[];
  }
}

/** How many numbers may have a persona: a test's cast, never a directory. */
export const MAX_PERSONAS = 1000;

/**
 * How large the personas may be in all, as JSON (4 MB): they are one stored value, written whole
 * with each change, and GET /_sim/personas answers them all. Without it a persona of the longest
 * texts (580 KB as JSON when they are control characters) for each of 1,000 numbers made 580 MB:
 * each PUT wrote the lot (1.6 s each by the hundredth, 3.4 s at worst) and the list was 58 MB at 100.
 */
export const MAX_PERSONA_BYTES = 4 * 1024 * 1024;

// ---- the built-ins: the four-digit scripts, as personas ----

const GOAL_LINES = [{ says: 'Hello?' }, { says: 'Sure, go ahead.' }, { says: 'Yes, that works for me.' }];
const answers = (talk_seconds: number, lines: { says: string }[], outcome: CallPersona['outcome']) => ({
  attempts: [{ result: 'answer' as const, ring_seconds: 6 }],
  lines,
  outcome,
  talk_seconds,
});

const CALL_PARTS: Record<string, CallPersona> = {
  goal: answers(52, GOAL_LINES, 'goal_achieved'),
  not_interested: answers(18, [{ says: 'Hello?' }, { says: "Sorry, I'm not interested." }], 'declined'),
  callback: answers(
    27,
    [{ says: 'Hello?' }, { says: "I can't talk right now. Could you call me back later?" }],
    'callback',
  ),
  rings_out: { attempts: [{ result: 'no_answer', ring_seconds: 30 }] },
  voicemail: { attempts: [{ result: 'voicemail', ring_seconds: 20 }] },
  busy: { attempts: [{ result: 'busy', ring_seconds: 2 }] },
  answers_second: {
    ...answers(52, GOAL_LINES, 'goal_achieved'),
    attempts: [
      { result: 'no_answer', ring_seconds: 30 },
      { result: 'answer', ring_seconds: 6 },
    ],
  },
  provider_fails: { attempts: [{ result: 'fails', ring_seconds: 3, error: PROVIDER_CALL_ERROR }] },
};

const TEXT_PARTS: Record<string, TextPersona> = {
  agrees: { replies: [{ says: 'Yes, that works for me!', after_seconds: 120 }] },
  declines: { replies: [{ says: 'No thanks, not interested.', after_seconds: 90 }] },
  silent: { replies: [] },
  agrees_late: { replies: [{ says: 'Sorry for the slow reply. Yes, that works!', after_seconds: 20 * 3600 }] },
  delivery_fails: { delivery: 'fails', replies: [] },
  stop: { replies: [{ says: 'STOP', after_seconds: 60 }] },
};

/** The built-ins by last four digits (null: any other number), with the names of their call and text parts. */
export const BUILTINS: readonly { digits: string | null; call: string; text: string; name: string }[] = [
  { digits: '0100', call: 'goal', text: 'agrees', name: 'Agrees' },
  { digits: '0101', call: 'not_interested', text: 'declines', name: 'Not interested' },
  { digits: '0102', call: 'rings_out', text: 'silent', name: 'Never answers' },
  { digits: '0103', call: 'voicemail', text: 'silent', name: 'Voicemail every time' },
  { digits: '0104', call: 'busy', text: 'silent', name: 'Busy every time' },
  { digits: '0105', call: 'answers_second', text: 'agrees_late', name: 'Answers the second attempt' },
  { digits: '0106', call: 'provider_fails', text: 'delivery_fails', name: 'The provider fails' },
  { digits: '0107', call: 'callback', text: 'stop', name: 'Asks for a call back' },
  { digits: null, call: 'goal', text: 'agrees', name: 'Any other number' },
];

/** The built-in entry for a number: by its last four digits, else the one for any other number. */
export const builtinFor = (number: string) =>
  BUILTINS.find((b) => b.digits !== null && number.endsWith(b.digits)) ?? BUILTINS[BUILTINS.length - 1];

/** A built-in entry as a persona document (what `vmv sim persona show` prints and `set` accepts). */
export function builtinPersona(b: (typeof BUILTINS)[number]): Persona {
  const where = b.digits ? `numbers ending ${b.digits}` : 'numbers without a persona or a built-in of their own';
  return {
    name: b.name,
    description: `Built in: ${where} (the "${b.call}" call and "${b.text}" text scripts).`,
    call: CALL_PARTS[b.call],
    text: TEXT_PARTS[b.text],
  };
}

/** A persona that applies to a number, its parts all given (a built-in or a number's own play alike). */
export interface Resolved {
  call: CallPersona;
  text: TextPersona;
}

/** The persona that applies to a number: its own (parts it leaves out from the built-in), else the built-in. */
export function personaFor(world: Pick<World, 'personas'>, number: string): Resolved {
  const own = world.personas.find((p) => p.number === number)?.persona;
  const b = builtinFor(number);
  return {
    call: own?.call ?? CALL_PARTS[b.call],
    text: own?.text ?? TEXT_PARTS[b.text],
  };
}
