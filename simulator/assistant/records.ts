// The assistant's records as the API returns them (spec Part 2 "Assistant conversation"): the
// conversation, its actions and pending approvals, and the transcript the read adds. One definition:
// the API description, the contract tests, the presenters and the CLI's types come from these.
import * as z from 'zod/mini';
import {
  absent,
  doc,
  freeObject,
  named,
  nullable,
  oneOf,
  record,
  timestamp,
  uuid,
  type Infer,
} from '../core/schema.js';
import type { Context, Intent } from './understand.js';

export const CONVERSATION_STATES = ['working', 'idle', 'awaiting_approval', 'failed'] as const;
export type ConversationState = (typeof CONVERSATION_STATES)[number];
export const ACTION_STATES = ['completed', 'failed', 'declined'] as const;

export const ActionSchema = named(
  'AssistantAction',
  () =>
    record({
      tool_call_id: uuid({ example: '2f7a9c3e-1b4d-4c6e-8f0a-9b1c2d3e4f5a' }),
      tool: doc(z.string(), {
        description:
          "the tool (the MCP server's names: create_quick_ai_text, list_calls, update_phone_number_config …)",
        example: 'create_quick_ai_text',
      }),
      status: oneOf(
        ACTION_STATES,
        '`completed`; `failed` with error; `declined` when its approval was declined (not done)',
      ),
      input: freeObject('what the tool was given'),
      output: doc(
        absent(freeObject()),
        'what it returned; absent unless completed (an object in the spec, never null)',
      ),
      error: nullable(z.string()),
    }),
  'An action the assistant took in the current run.',
);

export const PendingApprovalSchema = named(
  'AssistantPendingApproval',
  () =>
    record({
      approval_id: uuid({ example: '8c1e4f2a-6b3d-4e5f-9a7b-1c2d3e4f5a6b' }),
      tool_call_id: uuid({ example: '2f7a9c3e-1b4d-4c6e-8f0a-9b1c2d3e4f5a' }),
      tool: doc(z.string(), { example: 'create_quick_ai_call' }),
      input: freeObject('what the tool would be given'),
      reason: doc(z.string(), {
        description: 'why it needs approval: what it does and what it costs',
        example: 'Places an AI call to +14155550100: 0.20 USD per call placed plus 0.20 USD a minute, from the wallet.',
      }),
    }),
  'An action waiting for approval: it costs money or cannot be undone.',
);

const conversationShape = () => ({
  conversation_id: uuid(),
  title: doc(z.string(), { example: 'Text +14155550100 and ask whether Tuesday works' }),
  status: oneOf(
    CONVERSATION_STATES,
    'working → idle (reply final), awaiting_approval (answer pending_approvals), or failed (error set; another message may be sent)',
  ),
  run_id: uuid({
    description: 'the current run: one per message (answering its approvals carries it on)',
    example: '4b9e2d7c-3a1f-4e8b-9c6d-5a7b8c9d0e1f',
  }),
  reply: doc(z.string(), 'final when idle; what has been said so far while working'),
  actions: z.array(ActionSchema),
  pending_approvals: z.array(PendingApprovalSchema),
  error: nullable(z.string()),
  not_understood: doc(z.array(z.string()), {
    description:
      'the requests of the latest message the assistant could not read, in its words (a simulator extension: [] when it read them all; ' +
      'the reply says what it did not understand and offers the closest things it can do; `vmv assistant send` exits 8)',
    example: ['sing me a song'],
  }),
  updated_at: timestamp(),
  created_at: timestamp(),
});

export const ConversationSchema = named(
  'AssistantConversation',
  () => record(conversationShape()),
  "An assistant conversation: its state, latest reply, the current run's actions and pending approvals.",
);

export const TranscriptEntrySchema = named(
  'AssistantTranscriptEntry',
  () =>
    record({
      role: oneOf(['user', 'assistant']),
      content: doc(z.string(), { example: 'Text +14155550100 and ask whether Tuesday works' }),
      at: timestamp(),
    }),
  'One message of a conversation.',
);

export const ConversationWithTranscriptSchema = named(
  'AssistantConversationWithTranscript',
  () =>
    record({
      ...conversationShape(),
      transcript: z.array(TranscriptEntrySchema),
    }),
  'An assistant conversation with its transcript, oldest message first.',
);

export type ConversationOut = Infer<typeof ConversationSchema>;
export type ConversationWithTranscriptOut = Infer<typeof ConversationWithTranscriptSchema>;
export type ActionOut = Infer<typeof ActionSchema>;
export type PendingApprovalOut = Infer<typeof PendingApprovalSchema>;
export type TranscriptEntry = Infer<typeof TranscriptEntrySchema>;

// ---- as stored ----

/** One tool call of an assistant run, as planned: approved, declined, or free; done once taken. */
export interface RunStep {
  tool_call_id: string;
  /** which request of the message it serves */
  clause: number;
  tool: string;
  input: Record<string, unknown>;
  /** why it waits for approval; null when free and reversible */
  approval: string | null;
  decision: 'approved' | 'declined' | null;
  reason: string | null;
  done: boolean;
}

/** Something a run started that goes on after it: a quick AI call or text job, an email, a video. */
export interface Started {
  tool: 'create_quick_ai_call' | 'create_quick_ai_text' | 'send_quick_email' | 'create_video';
  /** the job, email or video id */
  id: string;
  /** the number or address it went to */
  to: string;
  /** what an email cost (the others are read again when asked) */
  cost_usd?: number;
}

/** An assistant conversation as stored: the API's record, its transcript, and the current run's plan. */
export type ConversationRecord = Omit<ConversationOut, 'not_understood'> & {
  /** absent in data written before it was kept */
  not_understood?: string[];
  seq: number;
  workspace_id: string;
  /** the key whose message started the run: the actions run as it would */
  api_key_id: string | null;
  transcript: TranscriptEntry[];
  /** what the conversation's runs started, oldest first: what "did they agree?" and "how much did that cost?" ask about */
  started?: Started[];
  /** what the conversation has been about, for the requests that leave it out ("and yesterday?", "they") */
  context?: Context;
  run: {
    message: string;
    intents: Intent[];
    steps: RunStep[];
    sentences: string[];
    scratch: Record<number, unknown>;
  } | null;
};

declare module '../core/world.js' {
  interface World {
    assistant_conversations: ConversationRecord[];
  }
}
