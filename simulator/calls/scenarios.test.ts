// The simulated other party (docs/personas.md, "The simulated other party"): like a provider's test numbers,
// the last four digits of a destination decide what a quick call and a quick text meet (0100
// agrees … 0107 asks for a call back / replies STOP; any other number agrees), with docs/personas.md's
// timings on the simulator clock; and how a reply is read: STOP, STOPALL, UNSUBSCRIBE, CANCEL, END
// or QUIT alone opts out, "yes", "sure", "ok", "sounds good"… agree, "no", "not interested"…
// decline, anything else gets a follow-up.
import { describe, expect, it } from 'vitest';
import {
  attemptOutcome,
  callReview,
  callScenario,
  callTranscript,
  classifyReply,
  PROVIDER_CALL_ERROR,
  scriptedReply,
  substitute,
  TIMING,
  textScenario,
} from './scenarios.js';

// biome-ignore format: a table, its columns aligned
const NUMBERS: [string, string, string, string | null, number | null][] = [
  // number           call scenario      text scenario     the scripted reply       after (s)
  ['+14155550100',    'goal',            'agrees',         'Yes, that works for me!', 120],
  ['+14155550101',    'not_interested',  'declines',       'No thanks, not interested.', 90],
  ['+14155550102',    'rings_out',       'silent',         null,                      null],
  ['+14155550103',    'voicemail',       'silent',         null,                      null],
  ['+14155550104',    'busy',            'silent',         null,                      null],
  ['+14155550105',    'answers_second',  'agrees_late',    'Sorry for the slow reply. Yes, that works!', 20 * 3600],
  ['+14155550106',    'provider_fails',  'delivery_fails', null,                      null],
  ['+14155550107',    'callback',        'stop',           'STOP',                    60],
  // any other number agrees; only the last four digits count
  ['+14155550108',    'goal',            'agrees',         'Yes, that works for me!', 120],
  ['+14155559999',    'goal',            'agrees',         'Yes, that works for me!', 120],
  ['+442071230107',   'callback',        'stop',           'STOP',                    60],
  ['+33101020103',    'voicemail',       'silent',         null,                      null],
  ['+14155501000',    'goal',            'agrees',         'Yes, that works for me!', 120],
];

describe('the last four digits choose the scenario', () => {
  it.each(NUMBERS)('%s: call %s, text %s', (to, call, text, body, after) => {
    expect(callScenario(to)).toBe(call);
    expect(textScenario(to)).toBe(text);
    expect(scriptedReply(to)).toEqual(body === null ? null : { body, afterSeconds: after });
  });
});

describe('attemptOutcome: what each attempt meets', () => {
  it.each([
    ['+14155550100', 1, { kind: 'answered', talk: 'goal' }],
    ['+14155550100', 2, { kind: 'answered', talk: 'goal' }],
    ['+14155550101', 1, { kind: 'answered', talk: 'not_interested' }],
    ['+14155550102', 1, { kind: 'no_answer' }],
    ['+14155550102', 3, { kind: 'no_answer' }],
    ['+14155550103', 1, { kind: 'voicemail' }],
    ['+14155550103', 2, { kind: 'voicemail' }],
    ['+14155550104', 1, { kind: 'busy' }],
    ['+14155550104', 4, { kind: 'busy' }],
    // no answer on the first attempt; answers and achieves the goal on the next
    ['+14155550105', 1, { kind: 'no_answer' }],
    ['+14155550105', 2, { kind: 'answered', talk: 'goal' }],
    ['+14155550105', 3, { kind: 'answered', talk: 'goal' }],
    ['+14155550106', 1, { kind: 'failed', error: PROVIDER_CALL_ERROR }],
    ['+14155550107', 1, { kind: 'answered', talk: 'callback' }],
    ['+14155551234', 1, { kind: 'answered', talk: 'goal' }],
  ])('%s, attempt %i: %o', (to, attempt, outcome) => {
    expect(attemptOutcome(to, attempt)).toEqual(outcome);
  });
});

describe('timings on the simulator clock (docs/personas.md)', () => {
  it.each([
    ['an answered call rings', TIMING.ringBeforeAnswer, 6],
    ['a call that is not answered rings out after', TIMING.ringOut, 30],
    ['voicemail after ringing', TIMING.ringBeforeVoicemail, 20],
    ['busy after', TIMING.busy, 2],
    ['the provider fails the call after', TIMING.providerFailure, 3],
    ['summary and tags arrive after the end', TIMING.reviewDelay, 5],
    ['a call that achieves the goal talks', TIMING.talk.goal, 52],
    ['a call not interested talks', TIMING.talk.not_interested, 18],
    ['a call asking for a call back talks', TIMING.talk.callback, 27],
  ])('%s %i s', (_what, seconds, expected) => expect(seconds).toBe(expected));
});

describe('classifyReply: how the agent reads a reply', () => {
  it.each([
    // the opt-out words, alone, whatever their case, spacing or final full stop
    ['STOP', 'stop'],
    ['stop', 'stop'],
    ['  Stop. ', 'stop'],
    ['STOPALL', 'stop'],
    ['stop all', 'stop'],
    ['UNSUBSCRIBE', 'stop'],
    ['Cancel', 'stop'],
    ['END', 'stop'],
    ['quit!', 'stop'],
    // not alone: not an opt-out
    ['Please stop calling me', 'other'],
    ['stop it', 'other'],
    ['yes', 'agree'],
    ['Yes, that works for me!', 'agree'],
    ['Sure', 'agree'],
    ['ok', 'agree'],
    ['Okay then', 'agree'],
    ['Sounds good', 'agree'],
    ['confirmed', 'agree'],
    ['no', 'decline'],
    ['No thanks, not interested.', 'decline'],
    ['not now', 'decline'],
    ["I don't think so", 'decline'],
    // a decline is read before an agreement
    ['No, that does not work, sorry', 'decline'],
    ['What time?', 'other'],
    ['nobody home', 'other'],
    ['', 'other'],
  ])('%j: %s', (body, kind) => expect(classifyReply(body)).toBe(kind));
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

describe('callTranscript: the turns spread over the call', () => {
  it.each([
    ['goal', 52, 6, [0, 8.7, 17.3, 26, 34.7, 43.3]],
    ['not_interested', 18, 4, [0, 4.5, 9, 13.5]],
    ['callback', 27, 4, [0, 6.8, 13.5, 20.3]],
    // cut at the hard stop: the same turns in less time
    ['goal', 30, 6, [0, 5, 10, 15, 20, 25]],
  ] as const)('%s over %i s: %i turns at %o', (talk, seconds, turns, at) => {
    const t = callTranscript(talk, 'confirm the appointment.', null, null, seconds);
    expect(t).toHaveLength(turns);
    expect(t.map((x) => x.seconds_from_start)).toEqual(at);
    expect(t[0]).toMatchObject({ speaker: 'person', text: 'Hello?' });
  });

  it.each([
    [null, null, 'Hi there, this is an AI assistant calling to confirm the appointment. Do you have a moment?'],
    [null, 'Dana', 'Hi Dana, this is an AI assistant calling to confirm the appointment. Do you have a moment?'],
    ['Hello {{CONTACT_NAME}}, quick question.', 'Dana', 'Hello Dana, quick question.'],
  ])('opening %j to %s: %j', (opening, name, said) => {
    expect(callTranscript('goal', 'Confirm the appointment.', opening, name, 52)[1]).toEqual({
      speaker: 'agent',
      text: said,
      seconds_from_start: 8.7,
    });
  });
});

describe('callReview: summary and tags by how the call went', () => {
  it.each([
    ['goal', true, 'The recipient agreed: confirm Tuesday.', ['interested']],
    ['not_interested', true, 'The recipient said they were not interested.', ['not_interested']],
    ['callback', true, 'The recipient asked to be called back later.', ['callback_requested']],
    ['goal', false, 'The call reached the maximum call length before the goal (confirm Tuesday) was settled.', []],
  ] as const)('%s, completed %s', (talk, completed, summary, tags) => {
    expect(callReview(talk, 'Confirm Tuesday.', completed)).toEqual({ summary, tags });
  });
});
