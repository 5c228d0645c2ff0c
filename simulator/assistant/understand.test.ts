// How the assistant reads messages (understand.ts with dates.ts): requests split by meaning, each
// read into its intent, subject, direction and span of local time; references taken from the context.
// The answers these give on a seeded world are test/assistant-phrasings.test.ts's table.
import { describe, expect, it } from 'vitest';
import { readDate, type LocalNow } from './dates.js';
import { readMessage, splitRequests, type Context } from './understand.js';

/** Saturday 2026-03-14, 12:00 in Los Angeles (PDT, UTC-7). */
const NOW: LocalNow = { instant: new Date('2026-03-14T19:00:00Z'), offsetMinutes: -420, today: '2026-03-14', hour: 12 };
const read = (m: string, context: Context = {}) => readMessage(m, (t, ahead) => readDate(t, NOW, ahead), context);
/** A question's shape in one line: ask subject direction [label detail]. */
const shape = (m: string, context?: Context) =>
  read(m, context).map((x) => {
    if (x.kind === 'question')
      return `${x.ask} ${x.subject} ${x.direction}${x.span ? ` [${x.span.label} ${x.span.detail}]` : ''}`;
    if (x.kind === 'unknown') return `unknown "${x.said}"`;
    if (x.kind === 'money') return `money ${x.ask}${x.on ? ` on ${x.on}` : ''}${x.span ? ` [${x.span.label}]` : ''}`;
    if (x.kind === 'videos')
      return `videos ${x.what}${x.span ? ` [${x.span.label}${x.what === 'scheduled' ? ` ${x.span.detail}` : ''}]` : ''}`;
    if (x.kind === 'buy_number') return `buy_number ${x.area_code}`;
    if (x.kind === 'say') return `say ${x.text}`;
    return `${x.kind}${'phone' in x && x.phone ? ` ${x.phone}` : ''}`;
  });

describe('dates as people say them, in local time (chrono-node)', () => {
  it.each([
    ['who called yesterday', 'yesterday', '2026-03-13'],
    ['who called this morning', 'this morning', '2026-03-14 00:00 to 12:00'],
    ['who called on Thursday', 'on Thursday', '2026-03-12'],
    ['calls last week', 'last week', '2026-03-02 to 2026-03-08'],
    ['calls since Monday', 'since Monday', '2026-03-09 to now'],
    ['calls in March', 'in March', '2026-03-01 to 2026-03-31'],
    ['calls in February', 'in February', '2026-02-01 to 2026-02-28'],
    ['calls this week', 'this week', '2026-03-09 to now'],
    ['calls in the past week', 'past week', '2026-03-07 to now'],
    ['calls 2 days ago', '2 days ago', '2026-03-12'],
    ['calls on March 3', 'on March 3', '2026-03-03'],
    ['calls last month', 'last month', '2026-02-01 to 2026-02-28'],
    ['calls today', 'today', '2026-03-14'],
    ['calls on Sunday', 'on Sunday', '2026-03-08'],
    // words that name the future name it, marked future (a question about the past answers plainly)
    ['calls tomorrow', 'tomorrow', '2026-03-15', true],
    ['calls next week', 'next week', '2026-03-16 to 2026-03-22', true],
    ['calls next month', 'next month', '2026-04-01 to 2026-04-30', true],
    ['calls next year', 'next year', '2027-01-01 to 2027-12-31', true],
    ['calls next Monday', 'next Monday', '2026-03-16', true],
    ['calls in 3 days', 'in 3 days', '2026-03-17', true],
    ['calls in 2 weeks', 'in 2 weeks', '2026-03-28', true],
    ['calls the day after tomorrow', 'the day after tomorrow', '2026-03-16', true],
    ['calls from tomorrow', 'from tomorrow', '2026-03-15 on', true],
    ['calls tonight', 'tonight', '2026-03-14 18:00 to 24:00', true],
    // begun already: not future
    ['calls over the next 3 days', 'next 3 days', '2026-03-14 to 2026-03-16'],
    ['calls this afternoon', 'this afternoon', '2026-03-14 12:00 to 18:00'],
  ] as [string, string, string, boolean?][])('%s: %s = %s', (text, label, detail, future) => {
    expect(readDate(text, NOW)?.span).toMatchObject({ label, detail });
    expect(readDate(text, NOW)?.span.future ?? false).toBe(future ?? false);
  });
  // read for what is to come (videos scheduled): a weekday, a date or a month alone is the next one
  it.each([
    ['on Friday', '2026-03-20'],
    ['on Saturday', '2026-03-14'],
    ['on March 20', '2026-03-20'],
    ['on March 2', '2027-03-02'],
    ['in April', '2026-04-01 to 2026-04-30'],
    ['this week', '2026-03-14 to 2026-03-15'],
    ['this month', '2026-03-14 to 2026-03-31'],
    ['from tomorrow', '2026-03-15 on'],
    ['tomorrow', '2026-03-15'],
    ['next week', '2026-03-16 to 2026-03-22'],
    ['yesterday', '2026-03-13'],
  ])('ahead: videos scheduled %s = %s', (text, detail) => {
    expect(readDate(`videos scheduled ${text}`, NOW, true)?.span.detail).toBe(detail);
  });
  it('no date, no span', () => expect(readDate('who called us', NOW)).toBeNull());
});

describe('requests split by meaning', () => {
  it.each([
    ['who called us yesterday? and who texted us today?', ['who called us yesterday?', 'and who texted us today?']],
    [
      'Who called us yesterday and how many calls did we get today?',
      ['Who called us yesterday', 'how many calls did we get today?'],
    ],
    ['how many calls and texts did we get today?', ['how many calls and texts did we get today?']],
    ['text +14155550100 and ask whether Tuesday works', ['text +14155550100 and ask whether Tuesday works']],
    ['who called today; who texted today', ['who called today', 'who texted today']],
    ['who called yesterday? and today?', ['who called yesterday?', 'and today?']],
    ['who called today, and also who texted', ['who called today', 'who texted']],
  ])('%s', (m, parts) => expect(splitRequests(m)).toEqual(parts));
});

describe('a question of a span still to come', () => {
  it.each([
    // about what happened: answered plainly
    [
      'who called us tomorrow?',
      [
        'say There are no calls tomorrow (2026-03-15): that is after now, and I can only tell what has already happened.',
      ],
    ],
    [
      'show me calls from next week',
      [
        'say There are no calls next week (2026-03-16 to 2026-03-22): that is after now, and I can only tell what has already happened.',
      ],
    ],
    [
      'who contacted us next Monday?',
      [
        'say There are no calls or texts or emails next Monday (2026-03-16): that is after now, and I can only tell what has already happened.',
      ],
    ],
    [
      'how much did we spend next month?',
      [
        'say Nothing has been spent next month (2026-04-01 to 2026-04-30): that is after now, and I can only tell what has already happened.',
      ],
    ],
    [
      'how many videos did we post tomorrow?',
      [
        'say No videos were posted tomorrow (2026-03-15): that is after now, and I can only tell what has already happened.',
      ],
    ],
    // one about what is to come reads the future: the next Friday, next week
    ['how many videos are scheduled for tomorrow?', ['videos scheduled [tomorrow 2026-03-15]']],
    ['how many videos are scheduled on Friday?', ['videos scheduled [on Friday 2026-03-20]']],
    ['how many videos are scheduled next week?', ['videos scheduled [next week 2026-03-16 to 2026-03-22]']],
    ['how many videos are scheduled this week?', ['videos scheduled [this week 2026-03-14 to 2026-03-15]']],
  ])('%s', (m, want) => expect(shape(m)).toEqual(want));
});

describe('intents, subjects and references', () => {
  it.each([
    ['which calls came in yesterday', ['list calls inbound [yesterday 2026-03-13]']],
    ['did anyone call yesterday?', ['any calls inbound [yesterday 2026-03-13]']],
    ["list yesterday's callers", ['who calls inbound [yesterday 2026-03-13]']],
    ['how many calls came in yesterday?', ['count calls inbound [yesterday 2026-03-13]']],
    ['how many calls yesterday?', ['count calls inbound [yesterday 2026-03-13]']],
    ['show me texts from today', ['list texts inbound [today 2026-03-14]']],
    ['any texts today?', ['any texts inbound [today 2026-03-14]']],
    ['who called us on Thursday?', ['who calls inbound [on Thursday 2026-03-12]']],
    ['how many calls did we make yesterday?', ['count calls outbound [yesterday 2026-03-13]']],
    [
      'who contacted us today?',
      [
        'who calls inbound [today 2026-03-14]',
        'who texts inbound [today 2026-03-14]',
        'who emails inbound [today 2026-03-14]',
      ],
    ],
    ['what did +14155550100 say?', ['said_then +14155550100']],
    ['did the person at +14155550100 say yes?', ['agreed +14155550100']],
    ['what did it cost?', ['cost']],
    ['how much was that?', ['cost']],
    ['what was the cost?', ['cost']],
    ['Did the person agree?', ['agreed']],
    ['what did the person say?', ['said_then']],
    ['buy a number in 415', ['buy_number 415']],
    ['get me a new phone number', ['buy_number null']],
    ['we need a 212 number', ['buy_number 212']],
    ['could you buy us another number with area code 646?', ['buy_number 646']],
    [
      'buy a number in 123',
      ['say 123 is not an area code: a North American one has 3 digits, the first 2-9 (such as 415).'],
    ],
    ['get me the number of calls yesterday', ['count calls inbound [yesterday 2026-03-13]']],
    ['what is my balance?', ['money balance']],
    ['how much money is left in the wallet?', ['money balance']],
    ['how much did we spend this week?', ['money spent [this week]']],
    ['what did calls cost in March?', ['money spent on calls [in March]']],
    ['how much have we spent on texts?', ['money spent on texts']],
    ['how many videos did we post last week?', ['videos posted [last week]']],
    ['how many videos are scheduled?', ['videos scheduled']],
    ['how many videos did we make this month?', ['videos made [this month]']],
    ['what is my balance? and buy a number in 415', ['money balance', 'buy_number 415']],
    ['sing me a song', ['unknown "sing me a song"']],
    ['and yesterday?', ['unknown "and yesterday"']],
  ])('%s', (m, want) => expect(shape(m)).toEqual(want));

  it('"and yesterday?" asks the last question again for another day; "what about texts?" for another subject', () => {
    const context: Context = {};
    expect(shape('who texted us today?', context)).toEqual(['who texts inbound [today 2026-03-14]']);
    expect(shape('and yesterday?', context)).toEqual(['who texts inbound [yesterday 2026-03-13]']);
    expect(shape('what about calls?', context)).toEqual(['who calls inbound [yesterday 2026-03-13]']);
  });
  it('"and last week?" asks a money or video question again for another span; "what about texts?" for another kind', () => {
    const context: Context = {};
    expect(shape('what did calls cost this week?', context)).toEqual(['money spent on calls [this week]']);
    expect(shape('and last week?', context)).toEqual(['money spent on calls [last week]']);
    expect(shape('what about texts?', context)).toEqual(['money spent on texts [last week]']);
    expect(shape('how many videos did we post this week?', context)).toEqual(['videos posted [this week]']);
    expect(shape('and in February?', context)).toEqual(['videos posted [in February]']);
  });
  it('"the person" is the number last talked about', () => {
    const context: Context = {};
    read('what did +14155550100 say?', context);
    expect(shape('did they agree?', context)).toEqual(['agreed +14155550100']);
  });
});
