// The short text beside a tool's structured result: what the reply is (the route's words), a line
// per list item or field, where the next page is, and what an assistant conversation waits for.
// Long values are cut: the structured content has every one of them whole.
import type { McpTool } from '../../simulator/index.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const LIST_FIELDS = 8;
const cut = (s: string, max: number) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return [...one].length <= max ? one : `${[...one].slice(0, max - 1).join('')}…`;
};

function value(v: unknown, max: number): string {
  if (typeof v === 'string') return cut(v, max);
  if (Array.isArray(v))
    return v.every((x) => !isObj(x) && !Array.isArray(x))
      ? cut(JSON.stringify(v), max)
      : `[${v.length} item${v.length === 1 ? '' : 's'}]`;
  if (isObj(v)) return `{${Object.keys(v).length} fields}`;
  return String(v);
}

/** A list item on one line: its first plain fields. */
function itemLine(item: unknown): string {
  if (!isObj(item)) return value(item, 120);
  const plain = Object.entries(item).filter(([, v]) => v === null || typeof v !== 'object');
  return plain
    .slice(0, LIST_FIELDS)
    .map(([k, v]) => `${k}: ${value(v, 80)}`)
    .join(', ');
}

/** A record, a field a line. */
const recordLines = (r: Obj) => Object.entries(r).map(([k, v]) => `${k}: ${value(v, 200)}`);

/** What an assistant conversation asks of the client next. */
function conversationHint(c: Obj): string[] {
  const id = c.conversation_id;
  const pending = Array.isArray(c.pending_approvals) ? (c.pending_approvals as Obj[]) : [];
  if (pending.length > 0) {
    return [
      `Waiting for approval of ${pending.length} action${pending.length === 1 ? '' : 's'}:`,
      ...pending.map((p) => `- ${p.approval_id} (${p.tool}): ${p.reason}`),
      `Answer every one in one call: ask_assistant with conversation_id "${id}" and approvals [{approval_id, approved: true or false, reason?}].`,
    ];
  }
  if (c.status === 'working')
    return [
      `Still working: read it again with get_assistant_conversation (conversation_id "${id}"). On a simulator whose clock is manual the run moves only as the clock is advanced (vmv sim advance 10s).`,
    ];
  return [];
}

/** After a page of a list: how to ask for the next one, or that this was the last; nothing for a list without meta. */
function nextPage(tool: McpTool, meta: Obj | undefined): string {
  if (typeof meta?.cursor === 'string') return `More: call ${tool.name} again with cursor "${meta.cursor}".`;
  return meta ? 'This is the last page.' : '';
}

export function renderReply(tool: McpTool, body: Obj): string {
  const data = body.data;
  const meta = isObj(body.meta) ? body.meta : undefined;
  if (data === undefined) return `${tool.reply}.`;
  if (Array.isArray(data)) {
    const total = typeof meta?.total_results === 'number' ? ` of ${meta.total_results}` : '';
    return [`${tool.reply}: ${data.length}${total}.`, ...data.map((x) => `- ${itemLine(x)}`), nextPage(tool, meta)]
      .filter(Boolean)
      .join('\n');
  }
  if (!isObj(data)) return `${tool.reply}: ${value(data, 200)}`;
  const lines = [`${tool.reply}:`, ...recordLines(data)];
  if ('pending_approvals' in data && 'conversation_id' in data) lines.push(...conversationHint(data));
  return lines.join('\n');
}
