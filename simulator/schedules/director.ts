// The AI director of a video schedule: for each posting day it decides every video's template,
// angle, topic, script and caption from the workspace's marketing profile, the schedule's
// `direction`, the trends of the day, its pinned templates and settings, and the video it is
// modelled on. Deterministic (the same schedule, day and profile give the same plan) and varied:
// templates, angles and topics rotate with the day and the video's place in it, so no two videos
// of a day and no two consecutive days are planned alike.
import { defaultPreset, type Template, write, type SlideSettings, type Written } from '../videos/index.js';

export interface MarketingProfile {
  business_name: string;
  description: string;
  audience: string;
  tone: string;
  products: string[];
  topics: string[];
  call_to_action: string;
}

export const ANGLES = [
  'Quick tip',
  'Behind the scenes',
  'Customer question',
  'Myth vs fact',
  'Product spotlight',
  'How-to in 30 seconds',
  'A day in the life',
  'Before and after',
  'Top 3 list',
  'Story time',
] as const;

/** What is trending, by day (the simulated trend feed the director reads). */
export const TRENDS = [
  'POV videos',
  'day-in-the-life vlogs',
  'three-tip lists',
  'green-screen reactions',
  'silent reviews',
  'this-or-that polls',
  'storytime voiceovers',
] as const;

/** The order the director tries templates in when it picks (allowed_templates empty). */
export const DIRECTOR_TEMPLATES: readonly Template[] = [
  'talking_avatar',
  'slideshow',
  'remotion',
  'phone_mockup',
  'meme_hook',
  'real_footage',
  'interview',
  'freeform_ai',
];

/** The part of a video recipe a schedule pins (video_settings) or takes from its model video. */
export interface Pins {
  preset?: string;
  format?: 'vertical' | 'horizontal';
  target_duration_seconds?: number;
  source_url?: string;
  source_text?: string;
  slide_settings?: SlideSettings;
  caption?: string;
  hashtags?: string[];
  [k: string]: unknown;
}

export interface PlannedVideo {
  template: Template;
  preset: string;
  format: 'vertical' | 'horizontal';
  target_duration_seconds: number;
  angle: string;
  topic: string;
  trend: string;
  /** the brief the video's research reads (its source_text) */
  brief: string;
  content: Written;
  caption: string;
  hashtags: string[];
}

export interface PlanInput {
  /** how many posting days the schedule has planned before this one */
  dayIndex: number;
  day: string;
  count: number;
  profile: MarketingProfile;
  direction: string | null;
  allowed: Template[];
  pins: Pins;
  /** the video the schedule is modelled on, if any */
  model: {
    template: Template;
    preset: string;
    format: 'vertical' | 'horizontal';
    target_duration_seconds: number;
  } | null;
}

const tag = (s: string) => `#${s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')}`;

/** The templates the director may choose from, in the order it rotates through them. */
export function candidates(allowed: readonly Template[], model: PlanInput['model']): Template[] {
  if (allowed.length > 0) return [...allowed];
  return model ? [model.template, ...DIRECTOR_TEMPLATES.filter((t) => t !== model.template)] : [...DIRECTOR_TEMPLATES];
}

/**
 * The k-th of `count` choices on posting day `day` among n options: the days walk through the
 * options in turn, each day starting where the day before stopped; when a day takes whole rounds of
 * them (count a multiple of n) it starts one further on, so no two days run alike.
 */
export const rotate = (day: number, count: number, k: number, n: number) =>
  (day * count + k + (count % n === 0 ? day : 0)) % n;

/** The day's videos: `count` of them, each different from the others and from the day before. */
export function planDay(p: PlanInput): PlannedVideo[] {
  const pool = candidates(p.allowed, p.model);
  const subjects = [...p.profile.topics, ...p.profile.products];
  if (subjects.length === 0) subjects.push(p.profile.business_name);
  const trend = TRENDS[p.dayIndex % TRENDS.length];
  return Array.from({ length: p.count }, (_, k) => {
    const template = pool[rotate(p.dayIndex, p.count, k, pool.length)];
    const angle = ANGLES[(p.dayIndex * 3 + k) % ANGLES.length];
    const topic = subjects[rotate(p.dayIndex, p.count, k, subjects.length)];
    const preset = p.pins.preset ?? (p.model?.template === template ? p.model.preset : defaultPreset(template));
    const seconds = p.pins.target_duration_seconds ?? p.model?.target_duration_seconds ?? 30;
    const brief = [
      `${angle}: ${topic} at ${p.profile.business_name}.`,
      p.pins.source_text ?? `${p.profile.business_name} is ${p.profile.description}.`,
      `Made for ${p.profile.audience}, in a ${p.profile.tone} tone, riding the trend of ${trend}.`,
      p.direction ? `${p.direction.replace(/[.!?]?\s*$/, '.')}` : '',
      `${p.profile.call_to_action.replace(/[.!?]?\s*$/, '.')}`,
    ]
      .filter(Boolean)
      .join(' ');
    const content = write(
      template,
      preset,
      { source_text: brief, source_url: p.pins.source_url ?? null },
      seconds,
      p.pins.slide_settings ?? {},
    );
    return {
      template,
      preset,
      format: p.pins.format ?? p.model?.format ?? 'vertical',
      target_duration_seconds: seconds,
      angle,
      topic,
      trend,
      brief,
      content,
      // a pinned caption or hashtags win over the director's
      caption: p.pins.caption ?? `${angle}: ${topic}`,
      hashtags:
        p.pins.hashtags ??
        [tag(p.profile.business_name), tag(topic), tag(angle)].filter(
          (h, i, all) => h.length > 1 && all.indexOf(h) === i,
        ),
    };
  });
}

/** Whether the director chooses the template (more than one to choose from). */
export const picksTemplate = (allowed: readonly Template[]) => allowed.length !== 1;

export const DEFAULT_PROFILE = (businessName: string): MarketingProfile => ({
  business_name: businessName,
  description: 'a neighbourhood espresso bar and roastery on Main Street',
  audience: 'busy commuters and people working from home',
  tone: 'friendly',
  products: ['cold brew', 'the house espresso blend', 'oat milk lattes'],
  topics: ['brewing better coffee at home', 'how we roast our beans', 'the new seasonal menu'],
  call_to_action: 'Visit us on Main Street',
});
