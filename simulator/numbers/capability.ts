// Phone numbers, declared: quick AI numbers and the workspace's numbers, their configuration, an AI
// number's wiring and monthly line, the texts a number answers; the numbers kept, and a workspace's
// voice and sms defaults, caller IDs and library.
import type { Capability } from '../core/capability.js';
import { type Rng, uuidOf } from '../core/rng.js';
import { timerRow } from '../core/scheduler.js';
import type { Workspace } from '../core/world.js';
import { newConfig, workspaceDefaults } from './config-defaults.js';
import { nextCharge } from './lines.js';
import type { PhoneNumber } from './records.js';

/** The knowledge bases, FAQs and event types a workspace starts with (ids are UUIDs, as the spec's record ids are). */
function workspaceLibrary(rng: Rng): Pick<Workspace, 'knowledge_bases' | 'faqs' | 'event_types'> {
  return {
    knowledge_bases: [
      { id: rng.shortUuid(), name: 'Product handbook' },
      { id: rng.shortUuid(), name: 'Pricing and plans' },
    ],
    faqs: [
      { id: rng.shortUuid(), question: 'What are your opening hours?' },
      { id: rng.shortUuid(), question: 'Where are you located?' },
    ],
    event_types: [
      { id: rng.shortUuid(), name: 'Intro call', minutes: 15 },
      { id: rng.shortUuid(), name: 'Demo', minutes: 30 },
    ],
  };
}

/** An id of the library as it is now: one from before ids were UUIDs (`kb_…`, `faq_…`, `evt_type_…`) becomes its UUID. */
const libraryId = (id: string) => (/^(kb|faq|evt_type)_/.test(id) ? uuidOf(id.replace(/^[a-z_]+_/, '')) : id);

/** A configuration's references to the library, in the ids the library has now. */
function libraryRefs(config: PhoneNumber['config']): void {
  const k = config.knowledge;
  k.knowledge_base_ids = k.knowledge_base_ids.map(libraryId);
  k.faq_ids = k.faq_ids.map(libraryId);
  config.booking.event_type_ids = config.booking.event_type_ids.map(libraryId);
}

interface OldAgent {
  id: string;
  name: string;
  prompt: string;
}

/**
 * An AI number's agent, once a copy, keeps what the user saw where its configuration still holds what
 * purchase put there: the agent's prompt over the workspace default prompt, and its name ("<business>
 * assistant", or the name given) over the configuration's default "<business> AI line". A configuration
 * that inherits the workspace's voice settings, or was changed, stays as it is.
 */
function keepAgent(n: PhoneNumber, agent: OldAgent, ws: Workspace): void {
  const voice = n.config.voice;
  if (voice === null) return;
  if (voice.prompt === ws.defaults.voice.prompt) voice.prompt = agent.prompt;
  if (n.config.name === agent.name.replace(/ assistant$/, ' AI line'))
    n.config.name = [...agent.name].slice(0, 100).join('');
}

export const numbers: Capability = {
  name: 'numbers',
  resources: [
    { prefixes: ['/v1/quick/ai-numbers'], load: async () => (await import('./ai-numbers.js')).aiNumbers },
    { prefixes: ['/v1/phone-numbers'], load: async () => (await import('./phone-numbers.js')).phoneNumbers },
  ],
  machines: [
    { types: ['number.sms_reply'], load: async () => (await import('./number-text.js')).numberTextTimers },
    {
      types: ['ainumber.wire', 'ainumber.line'],
      calendar: ['ainumber.line'],
      // one charge a month per line open
      work: (data, fromMs, toMs) =>
        Math.ceil(Math.max(0, toMs - fromMs) / (28 * 86_400_000)) * data.phone_numbers.filter((n) => n.line).length,
      load: async () => (await import('./ai-number-machine.js')).aiNumberTimers,
    },
  ],
  collections: { records: ['phone_numbers'] },
  seed: (world) => void (world.meta.next_phone_number_id = 1001),
  workspace: (ws, { rng }) =>
    Object.assign(ws, { defaults: workspaceDefaults(), caller_ids: [], ...workspaceLibrary(rng) }),
  upgrade(world, { rng }) {
    world.meta.next_phone_number_id ??= 1001;
    for (const w of world.workspaces) {
      w.defaults ??= workspaceDefaults();
      w.caller_ids ??= [];
      if (!w.knowledge_bases) Object.assign(w, workspaceLibrary(rng));
      for (const item of [...w.knowledge_bases, ...w.faqs, ...w.event_types]) item.id = libraryId(item.id);
    }
    for (const n of world.phone_numbers) {
      const old = n as unknown as {
        name?: string;
        business_name?: string | null;
        business_description?: string | null;
        agent?: OldAgent;
      };
      n.stack ??= 't2';
      if (n.config) libraryRefs(n.config);
      n.config ??= newConfig(old.name ?? 'Phone number', old);
      // the agent was a copy of its settings: its id is kept, its settings are the configuration's now
      n.agent_id ??= old.agent?.id ?? rng.uuid();
      if (old.agent) keepAgent(n, old.agent, world.workspaces.find((w) => w.id === n.workspace_id)!);
      delete old.agent;
      // before lines were charged monthly, the month paid at purchase was all: a number still provisioning
      // has that month as its line (refunded if it fails or is released), charged monthly from its purchase
      // as a fresh purchase is; a number already wired has no line
      if (n.line === undefined) {
        n.line = n.status === 'provisioning' ? { anchor_at: n.created_at, months: 1, suspended: false } : null;
        if (n.line) {
          const t = nextCharge(n);
          world.timers.push(timerRow(world.meta.next_seq++, t.atMs, t.type, t.payload));
        }
      }
    }
  },
};
