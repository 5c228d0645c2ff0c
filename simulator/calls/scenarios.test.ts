// How the text agent reads a reply (docs/personas.md, "The simulated other party"): STOP, STOPALL,
// UNSUBSCRIBE, CANCEL, END or QUIT alone opts out, "yes", "sure", "ok", "sounds good"… agree, "no",
// "not interested"… decline, anything else gets a follow-up.
import { describe, expect, it } from 'vitest';
import { classifyReply } from './scenarios.js';

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
