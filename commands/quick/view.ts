// How quick action jobs look in the terminal (shared by call, text, status and cancel).
import type { Context } from '../../src/context.js';
import { EXIT, CliError } from '../../src/errors.js';
import {
  ALWAYS,
  alignedLines,
  type Cell,
  type Column,
  cell,
  col,
  fields,
  money,
  nested,
  textCol,
} from '../../src/output.js';
import { followRead } from '../../src/poll.js';

export interface Target {
  to_number: string;
  from_number?: string;
  status: string;
  live_call_status?: string;
  attempts: number;
  messages_sent: number;
  messages_received: number;
  goal_achieved: boolean;
  end_reason: string | null;
  summary: string | null;
}
export interface Job {
  id: string;
  kind: string;
  status: string;
  goal: string;
  targets: Target[];
  counts: Record<string, number>;
  cost_usd: number;
  created_at: string;
  completed_at: string | null;
}

const COLUMNS = [
  col('to', ALWAYS),
  col('from', 5),
  col('status', 8),
  col('live', 6),
  col('attempts', 3),
  col('sent', 4),
  col('received', 4),
  col('goal', 7),
  textCol('end reason', 2),
];
const row = (t: Target): Cell[] => [
  t.to_number,
  t.from_number,
  t.status,
  t.live_call_status,
  t.attempts,
  t.messages_sent,
  t.messages_received,
  t.goal_achieved ? 'yes' : 'no',
  t.end_reason,
];
/** Columns that mean nothing for a kind, left out on a terminal (piped lines keep every column: scripts cut by position). */
const MEANINGLESS: Record<string, string[]> = { ai_call: ['sent', 'received'], ai_text: ['live', 'attempts'] };

/** The targets' columns and rows as a terminal shows them for the job's kind. */
function targetTable(ctx: Context, job: Job): [Column[], Cell[][]] {
  const rows = job.targets.map(row);
  const skip = ctx.io.stdoutTTY ? (MEANINGLESS[job.kind] ?? []) : [];
  const keep = COLUMNS.map((_, i) => i).filter((i) => !skip.includes(COLUMNS[i].header));
  return [keep.map((i) => COLUMNS[i]), rows.map((r) => keep.map((i) => r[i]))];
}

export function printJob(ctx: Context, job: Job): void {
  fields(ctx.io, [
    ['job', job.id],
    ['kind', job.kind],
    ['status', job.status],
    ['goal', job.goal],
    [
      'counts',
      Object.entries(job.counts)
        .filter(([k, v]) => k !== 'total' && v > 0)
        .map(([k, v]) => `${v} ${k}`)
        .join(', '),
    ],
    ['cost', money(job.cost_usd)],
    ['created', job.created_at],
    ['completed', job.completed_at],
  ]);
  nested(ctx.io, 'target', ...targetTable(ctx, job));
}

/** The live view: a summary line and an aligned table, redrawn on each change. */
const liveLines = (ctx: Context, job: Job): string[] => [
  `${job.kind} ${job.id}: ${job.status}, ${money(job.cost_usd)}`,
  ...alignedLines(ctx.io, ...targetTable(ctx, job)),
];

/** Follows a job until it ends and prints the end state (the last read's body with --json). */
export async function followJob(
  ctx: Context,
  id: string,
  o: { failOnFailed: boolean; streamChanges: boolean },
): Promise<void> {
  const { data } = await followRead<{ data: Job }>(ctx, `/v1/quick/actions/${encodeURIComponent(id)}`, {
    done: (b) => b.data.status !== 'running',
    live: (b) => liveLines(ctx, b.data),
    // piped, each change is a line in the record's own shape: target<TAB>its columns
    changes: o.streamChanges
      ? (b) => new Map(b.data.targets.map((t) => [t.to_number, ['target', ...row(t)].map(cell).join('\t')]))
      : undefined,
    final: (b) => printJob(ctx, b.data),
  });
  // a target that failed (the provider's error, the pool's daily ceiling); no answer after every
  // retry, an opt-out or a cancel are outcomes of a campaign, not failures of the command
  const failed = data.targets.filter((t) => t.status === 'failed').length;
  if (o.failOnFailed && failed > 0)
    throw new CliError(`${failed} of ${data.targets.length} targets failed.`, EXIT.failed);
}
