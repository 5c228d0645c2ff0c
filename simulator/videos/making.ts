// Making a video (spec Part 4 Videos): the price of a body (quote), creating one (charged at once
// with an own script, else queued for its script to be written), and approving a written script
// with its edits (the price recomputed, the cap kept, charged once). The creation body itself is
// videos/body.ts.
import { ApiError, validationError } from '../core/errors.js';
import { route, type Ctx } from '../core/http.js';
import type { VideoRecord } from './records.js';
import { arr, dataOf, int, obj, str, type Infer } from '../core/schema.js';
import { newFields } from '../core/check.js';
import { DEFAULTS, defaultPreset, DURATION, INTERVIEW_SPEAKERS, type Template } from './catalog.js';
import { VideoQuoteSchema, VideoSchema } from './records.js';
import { interviewWritten, sceneSeconds, scriptOfScenes, scriptOfSlides } from './writer.js';
import { cannotPayMessage, enter, newVideo, priceVideo, release, reprice, type Content } from './machine.js';
import { price as priceText, usdAmount } from '../billing/index.js';
import { CreateBody, checkSpoken, parseRecipe, videoInput, type CreateInput } from './body.js';
import { presentVideo } from './present.js';
import { clone } from '../store/tracker.js';
import { Id, findVideo, video } from './route-parts.js';

// ---- what a client sends (the creation body: videos/body.ts) ----

const SceneEdit = obj(
  {
    prompt: str({ min: 1, max: 1000, description: 'what the AI clip shows (default: made from the narration)' }),
    narration: str({ min: 1, max: 2000, description: 'what is said over it' }),
  },
  { required: ['narration'] },
);
const SlideEdit = obj(
  {
    title: str({ min: 1, max: 100 }),
    text: str({ min: 1, max: 500 }),
    seconds: int({ min: 1, max: 60, description: 'default 5' }),
  },
  { required: ['text'] },
);
const InterviewEdit = obj(
  {
    speakers: arr(obj({ name: str({ min: 1, max: 60 }), role: str({ min: 1, max: 60 }) }, { required: ['name'] }), {
      min: 2,
      max: 4,
    }),
    parts: arr(
      obj(
        { speaker: int({ min: 0, max: 3, description: 'index into speakers' }), text: str({ min: 1, max: 2000 }) },
        { required: ['speaker', 'text'] },
      ),
      { min: 1, max: 200 },
    ),
  },
  { required: ['parts'] },
);

const ApproveBody = obj(
  {
    script: str({
      min: 1,
      max: 10_000,
      description:
        'the script as edited (templates spoken from a script: all but freeform_ai, slideshow and interview)',
    }),
    scenes: arr(SceneEdit, { min: 1, max: 20, description: 'freeform_ai: the scenes as edited (replacing them all)' }),
    slides: arr(SlideEdit, { min: 2, max: 20, description: 'slideshow: the slides as edited (replacing them all)' }),
    interview: InterviewEdit,
    max_price_cents: int({
      min: 0,
      max: 10_000_000,
      description: 'refuse (400) if the price is above it',
      example: 500,
    }),
    // (the example edits a talking_avatar's script: one template's edit, not every kind at once)
  },
  { example: { script: 'Our espresso bar opens Monday on Main Street. Come say hi!', max_price_cents: 500 } },
);

// ---- creating ----
function ownContent(b: CreateInput): Content | null {
  return b.script === undefined ? null : { script: b.script, scenes: null, slides: null, interview: null };
}

function quote(b: CreateInput) {
  const preset = b.preset ?? defaultPreset(b.template);
  const target = b.target_duration_seconds ?? DEFAULTS.target_duration_seconds;
  return {
    ...priceVideo(b.template, preset, target, ownContent(b), b.script !== undefined, b.slide_settings),
    template: b.template,
    preset,
  };
}

const capMessage = (price: number, cap: number) =>
  `the price ${priceText(price)} (${price} cents) is above max_price_cents ${cap}`;

function create(c: Ctx<{}, {}, unknown>) {
  const b = parseRecipe(c.body);
  const q = quote(b);
  if (b.script !== undefined && b.max_price_cents !== undefined && q.price_cents > b.max_price_cents)
    throw validationError(
      { max_price_cents: capMessage(q.price_cents, b.max_price_cents) },
      "The script's price is above max_price_cents; nothing was created.",
    );
  const v = newVideo(c.s, c.auth.workspace.id, videoInput(b, b.template));
  if (b.script !== undefined) {
    // an own script is released at once: charged now, rendering begins, review skipped
    if (!release(c.s, v)) throw cannotPay(c, v);
  } else {
    enter(c.s, v, 'queued');
  }
  c.data.videos.push(v);
  return { status: 201, body: { data: presentVideo(c.data, c.origin, v) } };
}

function cannotPay(c: Ctx<any, any, any>, v: VideoRecord) {
  return new ApiError(400, 'insufficient_funds', cannotPayMessage(c.s, v).replace(/, then approve it\.$/, '.'));
}

// ---- approving ----

type ApproveInput = Infer<typeof ApproveBody>;
/** The field a video's written content is edited through on approval, by template: the script unless named here. */
const EDITED_THROUGH: Partial<Record<Template, 'scenes' | 'slides' | 'interview'>> = {
  freeform_ai: 'scenes',
  slideshow: 'slides',
  interview: 'interview',
};
const EDIT_FIELD = (t: Template) => EDITED_THROUGH[t] ?? 'script';

function applyEdits(v: VideoRecord, b: ApproveInput): void {
  const errs = newFields();
  const field = EDIT_FIELD(v.template);
  for (const f of ['script', 'scenes', 'slides', 'interview'] as const)
    if (b[f] !== undefined && f !== field) errs[f] = `${v.template} videos are edited through \`${field}\``;
  if (b.interview) {
    const speakers = b.interview.speakers?.length ?? v.interview?.speakers.length ?? INTERVIEW_SPEAKERS[v.preset] ?? 2;
    b.interview.parts.forEach((p, i) => {
      if (p.speaker >= speakers)
        errs[`interview.parts[${i}].speaker`] = `must be below ${speakers} (the number of speakers)`;
    });
  }
  if (b.script !== undefined && field === 'script') checkSpoken(v.template, 'script', b.script, errs);
  if (Object.keys(errs).length > 0) throw validationError(errs);
  if (b.script !== undefined) v.script = b.script;
  if (b.scenes) {
    v.scenes = b.scenes.map((s) => ({
      prompt: s.prompt ?? `${v.preset} shot: ${s.narration.split(' ').slice(0, 8).join(' ')}`,
      narration: s.narration,
      seconds: sceneSeconds(s.narration),
    }));
    v.script = scriptOfScenes(v.scenes);
  }
  if (b.slides) {
    v.slides = b.slides.map((s, i) => ({ title: s.title ?? `Slide ${i + 1}`, text: s.text, seconds: s.seconds ?? 5 }));
    v.script = scriptOfSlides(v.slides);
  }
  if (b.interview) {
    const speakers =
      b.interview.speakers?.map((s) => ({ name: s.name, role: s.role ?? 'guest' })) ?? v.interview!.speakers;
    Object.assign(v, interviewWritten({ speakers, parts: b.interview.parts }));
  }
}

function approve(c: Ctx<{ id: string }, {}, ApproveInput>) {
  const v = findVideo(c);
  if (v.status !== 'script_review')
    throw new ApiError(409, 'conflict', `Only a video in script_review can be approved; this one is ${v.status}.`);
  const before = clone(v);
  applyEdits(v, c.body);
  reprice(v, false);
  if (v.seconds > DURATION.max) {
    const seconds = v.seconds;
    Object.assign(v, before);
    throw validationError({
      [EDIT_FIELD(v.template)]: `makes a ${seconds}-second video; at most ${DURATION.max} seconds`,
    });
  }
  // the approve body's cap, else the one given at creation: a cap is never ignored (issue 23)
  const sent = c.body.max_price_cents;
  const cap = sent ?? v.max_price_cents ?? undefined;
  if (cap !== undefined && v.price_cents > cap) {
    const price = v.price_cents;
    Object.assign(v, before);
    throw validationError(
      {
        max_price_cents:
          sent === undefined
            ? `${capMessage(price, cap)}, given at creation; send a higher max_price_cents to approve it`
            : capMessage(price, cap),
      },
      'The price is above max_price_cents; the video was not approved.',
    );
  }
  if (sent !== undefined) v.max_price_cents = sent;
  if (!release(c.s, v)) {
    const err = cannotPay(c, v);
    Object.assign(v, before);
    throw err;
  }
  return { body: { data: presentVideo(c.data, c.origin, v) } };
}

// ---- the routes ----

export const quoteRoute = route({
  method: 'POST',
  path: '/v1/videos/quote',
  scope: 'videos:read',
  plan: 'content',
  summary: 'Price a video',
  description:
    'The price of the video this body would make, with its line items (template base, length, narration words, AI scenes, the service markup). ' +
    'Exact with an own script; without one an estimate from target_duration_seconds (`estimated` true). Makes nothing; free.',
  body: CreateBody(),
  bodyCheckedByHandler: true,
  responses: { 200: { description: 'The price', schema: dataOf(VideoQuoteSchema) } },
  handler: (c) => {
    const q = quote(parseRecipe(c.body));
    return {
      body: {
        data: {
          price_cents: q.price_cents,
          price_usd: usdAmount(q.price_cents),
          estimated: q.estimated,
          seconds: q.seconds,
          line_items: q.line_items,
          template: q.template,
          preset: q.preset,
        },
      },
    };
  },
});

export const createRoute = route({
  method: 'POST',
  path: '/v1/videos',
  scope: 'videos:write',
  plan: 'content',
  summary: 'Make a video',
  description:
    'With an own `script` the video is charged at once (plan video credits first, then the wallet) and rendering begins; 400 when the price is above ' +
    '`max_price_cents` (nothing is created) or the workspace cannot pay (`insufficient_funds`). Without a script it is queued, its script written from the sources, ' +
    'then approved automatically (`script_review` auto: charged then, or held in script_review with `error` when over the cap) or left in script_review (manual).',
  body: CreateBody(),
  bodyCheckedByHandler: true,
  responses: { 201: { description: 'The video', schema: dataOf(VideoSchema) } },
  errors: { 400: ['insufficient_funds'] },
  handler: create,
});

export const approveRoute = route({
  method: 'POST',
  path: '/v1/videos/{id}/approve',
  scope: 'videos:write',
  plan: 'content',
  summary: 'Approve a written script and render',
  description:
    'For a video in script_review: `{}` approves the script as written; edits replace the `script` (or the `scenes`, `slides` or `interview` of those templates), ' +
    'and the price is recomputed from them. The video is charged once (credits, then wallet) and rendering begins. 400 when the price is above `max_price_cents` ' +
    '(the one sent, else the one given at creation) ' +
    'or the workspace cannot pay (nothing bought, the video stays in script_review); 409 for a video in another state.',
  params: Id,
  body: ApproveBody,
  responses: video('The video, rendering'),
  errors: { 400: ['insufficient_funds'], 409: ['conflict'] },
  handler: approve,
});
