// The built-in personas played (docs/personas.md, "The simulated other party"): like a provider's test
// numbers, the last four digits of a destination choose a built-in persona (0100 agrees … 0107 asks
// for a call back / replies STOP; any other number agrees), which persona-play.ts plays as it plays
// any persona: what each attempt meets, docs/personas.md's timings, the turns spread over the call, the
// review that follows.
import { describe, expect, it } from 'vitest';
import { attemptOf, planConversation, review, substitute, timedTurns } from './persona-play.js';
import { builtinFor, builtinPersona, PROVIDER_CALL_ERROR, RING_SECONDS } from './persona.js';
import { REVIEW_DELAY_SECONDS } from './scripted-call.js';

/** The built-in persona document of a number: what `vmv sim persona show` prints and plays. */
const builtin = (to: string) => builtinPersona(builtinFor(to));
const callOf = (to: string) => builtin(to).call!;

// biome-ignore format: a table, its columns aligned
const NUMBERS: [string, string, string | null, number | null][] = [
  // number           built-in                       the first reply              after (s)
  ['+14155550100',    'Agrees',                      'Yes, that works for me!',   120],
  ['+14155550101',    'Not interested',              'No thanks, not interested.', 90],
  ['+14155550102',    'Never answers',               null,                        null],
  ['+14155550103',    'Voicemail every time',        null,                        null],
  ['+14155550104',    'Busy every time',             null,                        null],
  ['+14155550105',    'Answers the second attempt',  'Sorry for the slow reply. Yes, that works!', 20 * 3600],
  ['+14155550106',    'The provider fails',          null,                        null],
  ['+14155550107',    'Asks for a call back',        'STOP',                      60],
  // any other number agrees; only the last four digits count
  ['+14155550108',    'Any other number',            'Yes, that works for me!',   120],
  ['+14155559999',    'Any other number',            'Yes, that works for me!',   120],
  ['+442071230107',   'Asks for a call back',        'STOP',                      60],
  ['+33101020103',    'Voicemail every time',        null,                        null],
  ['+14155501000',    'Any other number',            'Yes, that works for me!',   120],
];

describe('the last four digits choose the built-in persona', () => {
  it.each(NUMBERS)('%s: %s, first reply %j', (to, name, says, after) => {
    expect(builtin(to).name).toBe(name);
    const first = builtin(to).text!.replies[0];
    expect(first ?? null).toEqual(says === null ? null : { says, after_seconds: after });
  });
});

describe('attemptOf a built-in: what each attempt meets', () => {
  it.each([
    ['+14155550100', 1, 'answer', 'goal_achieved'],
    ['+14155550100', 2, 'answer', 'goal_achieved'],
    ['+14155550101', 1, 'answer', 'declined'],
    ['+14155550102', 1, 'no_answer', undefined],
    ['+14155550102', 3, 'no_answer', undefined],
    ['+14155550103', 1, 'voicemail', undefined],
    ['+14155550103', 2, 'voicemail', undefined],
    ['+14155550104', 1, 'busy', undefined],
    ['+14155550104', 4, 'busy', undefined],
    // no answer on the first attempt; answers and achieves the goal on the next
    ['+14155550105', 1, 'no_answer', 'goal_achieved'],
    ['+14155550105', 2, 'answer', 'goal_achieved'],
    ['+14155550105', 3, 'answer', 'goal_achieved'],
    ['+14155550106', 1, 'fails', undefined],
    ['+14155550107', 1, 'answer', 'callback'],
    ['+14155551234', 1, 'answer', 'goal_achieved'],
  ])('%s, attempt %i: %s, then %s', (to, attempt, result, outcome) => {
    expect(attemptOf(callOf(to), attempt).result).toBe(result);
    expect(callOf(to).outcome).toBe(outcome);
  });

  it("the provider's failure carries its error text", () => {
    expect(attemptOf(callOf('+14155550106'), 1).error).toBe(PROVIDER_CALL_ERROR);
  });
});

describe('timings on the simulator clock (docs/personas.md)', () => {
  const ring = (to: string) => attemptOf(callOf(to), 1).ring_seconds;
  it.each([
    ['an answered call rings', ring('+14155550100'), RING_SECONDS.answer, 6],
    ['a call that is not answered rings out after', ring('+14155550102'), RING_SECONDS.no_answer, 30],
    ['voicemail after ringing', ring('+14155550103'), RING_SECONDS.voicemail, 20],
    ['busy after', ring('+14155550104'), RING_SECONDS.busy, 2],
    ['the provider fails the call after', ring('+14155550106'), RING_SECONDS.fails, 3],
    ['summary and tags arrive after the end', REVIEW_DELAY_SECONDS, 5, 5],
  ])('%s %i s (the default %i s)', (_what, seconds, byDefault, expected) => {
    expect(seconds).toBe(expected);
    expect(byDefault).toBe(expected);
  });

  it.each([
    ['achieves the goal', '+14155550100', 52],
    ['not interested', '+14155550101', 18],
    ['asks for a call back', '+14155550107', 27],
  ])('a call that %s talks %i s', (_what, to, seconds) => {
    const side = { goal: 'Confirm', instructions: null, opening: null, name: null };
    expect(planConversation(callOf(to), side, 600)).toMatchObject({ seconds, ending: 'course' });
  });
});

describe('substitute: {{CONTACT_NAME}}, with any spacing, or "there"', () => {
  it.each([
    ['Hi {{CONTACT_NAME}}!', 'Dana', 'Hi Dana!'],
    ['Hi {{ CONTACT_NAME }}!', 'Dana', 'Hi Dana!'],
    ['Hi {{CONTACT_NAME}}, {{CONTACT_NAME}}?', 'Dana', 'Hi Dana, Dana?'],
    ['Hi {{CONTACT_NAME}}!', null, 'Hi there!'],
    ['Hi {{contact_name}}!', 'Dana', 'Hi {{contact_name}}!'],
    ['No placeholder', 'Dana', 'No placeholder'],
  ])('%j with %s: %j', (text, name, out) => expect(substitute(text, name)).toBe(out));
});

describe("a built-in's turns, spread over the call", () => {
  const side = (opening: string | null = null, name: string | null = null) => ({
    goal: 'confirm the appointment.',
    instructions: null,
    opening,
    name,
  });
  it.each([
    ['+14155550100', 52, 6, [0, 8.7, 17.3, 26, 34.7, 43.3]],
    ['+14155550101', 18, 4, [0, 4.5, 9, 13.5]],
    ['+14155550107', 27, 4, [0, 6.8, 13.5, 20.3]],
    // cut at the hard stop: the turns keep their times, those after it were never said
    ['+14155550100', 30, 4, [0, 8.7, 17.3, 26]],
  ] as const)('%s over %i s: %i turns at %o', (to, seconds, turns, at) => {
    const t = planConversation(callOf(to), side(), seconds).turns;
    expect(t).toHaveLength(turns);
    expect(t.map((x) => x.seconds_from_start)).toEqual(at);
    expect(t[0]).toMatchObject({ speaker: 'person', text: 'Hello?' });
  });

  it.each([
    [null, null, 'Hi there, this is an AI assistant calling to confirm the appointment. Do you have a moment?'],
    [null, 'Dana', 'Hi Dana, this is an AI assistant calling to confirm the appointment. Do you have a moment?'],
    ['Hello {{CONTACT_NAME}}, quick question.', 'Dana', 'Hello Dana, quick question.'],
  ])('opening %j to %s: %j', (opening, name, said) => {
    expect(timedTurns(callOf('+14155550100'), side(opening, name)).turns[1]).toEqual({
      speaker: 'agent',
      text: said,
      seconds_from_start: 8.7,
    });
  });
});

describe('review: summary and tags by how the call went', () => {
  it.each([
    ['+14155550100', 600, 'The recipient agreed: confirm Tuesday.', ['interested']],
    ['+14155550101', 600, 'The recipient said they were not interested.', ['not_interested']],
    ['+14155550107', 600, 'The recipient asked to be called back later.', ['callback_requested']],
    ['+14155550100', 30, 'The call reached the maximum call length before the goal (confirm Tuesday) was settled.', []],
  ] as const)('%s, the hard stop at %i s', (to, max, summary, tags) => {
    const side = { goal: 'Confirm Tuesday.', instructions: null, opening: null, name: null };
    const c = planConversation(callOf(to), side, max);
    expect(review(c, callOf(to), 'Confirm Tuesday.')).toEqual({ summary, tags });
  });

  it.each([
    ['+14155550100', 'The call connected and went well.', ['interested']],
    ['+14155550101', 'The person was not interested.', ['not_interested']],
    ['+14155550107', 'The person asked to be called back.', ['callback_requested']],
  ] as const)('a voice call (no goal) to %s: %j', (to, summary, tags) => {
    const side = { goal: 'talk with you', instructions: null, opening: null, name: null };
    const c = planConversation(callOf(to), side, Number.POSITIVE_INFINITY);
    expect(review(c, callOf(to), null)).toEqual({ summary, tags });
  });
});
