// The files tools name, as MCP resources: a call's recording (audio/wav, as the API serves it) and transcript
// (text/plain), a video's MP4. A tool result carries a resource_link to each (get_call,
// get_call_recording, get_video) rather than the bytes inline; the client reads one with
// resources/read when it wants it. Each read goes to the target through the one API client.
import type { ReadResourceResult, ResourceLink, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../../src/client.js';
import { errorEnvelope } from '../../src/client.js';
import type { McpTool } from '../../simulator/index.js';

type Obj = Record<string, unknown>;

export const TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'vmv://calls/{call_id}/recording',
    name: 'call-recording',
    title: "A call's recording",
    description:
      "The recording of a call that has one (has_recording): the call's whole length, 8 kHz mono mu-law WAV (8,000 bytes a second).",
    mimeType: 'audio/wav',
  },
  {
    uriTemplate: 'vmv://calls/{call_id}/transcript',
    name: 'call-transcript',
    title: "A call's transcript",
    description: 'The transcript of a call as plain text, lines labelled AI: and User:.',
    mimeType: 'text/plain',
  },
  {
    uriTemplate: 'vmv://videos/{video_id}/video.mp4',
    name: 'video-file',
    title: "A video's file",
    description: 'The MP4 of a ready video.',
    mimeType: 'video/mp4',
  },
];

const URI = /^vmv:\/\/(calls|videos)\/([^/?#]+)\/(recording|transcript|video\.mp4)$/;

export const recordingLink = (callId: string, mimeType = 'audio/wav', size?: number): ResourceLink => ({
  type: 'resource_link',
  uri: `vmv://calls/${encodeURIComponent(callId)}/recording`,
  name: `call-${callId}-recording`,
  title: `Recording of call ${callId}`,
  mimeType,
  ...(size === undefined ? {} : { size }),
});

const transcriptLink = (callId: string): ResourceLink => ({
  type: 'resource_link',
  uri: `vmv://calls/${encodeURIComponent(callId)}/transcript`,
  name: `call-${callId}-transcript`,
  title: `Transcript of call ${callId}`,
  mimeType: 'text/plain',
});

const videoLink = (videoId: string): ResourceLink => ({
  type: 'resource_link',
  uri: `vmv://videos/${encodeURIComponent(videoId)}/video.mp4`,
  name: `video-${videoId}`,
  title: `Video ${videoId}`,
  mimeType: 'video/mp4',
});

/** Links to the files a record names: a call's recording and transcript, a ready video's MP4. */
export function fileLinks(tool: McpTool, body: Obj): ResourceLink[] {
  const d = body.data as Obj | undefined;
  if (!d || typeof d !== 'object' || Array.isArray(d) || typeof d.id !== 'string') return [];
  if (tool.name === 'get_call')
    return [
      ...(d.transcript ? [transcriptLink(d.id)] : []),
      ...(d.has_recording === true ? [recordingLink(d.id)] : []),
    ];
  if (tool.name === 'get_video' && typeof d.video_url === 'string') return [videoLink(d.id)];
  return [];
}

/** A failed read: the API's words, as the protocol's error (the resource is not there, or not yet). */
function refused(uri: string, res: { status: number; body: Buffer; headers: Record<string, string> }): McpError {
  const e = errorEnvelope(res as never).error;
  return new McpError(ErrorCode.InvalidParams, `${uri}: ${e.message}`, { status: res.status, code: e.code });
}

/** resources/read: the file behind a vmv:// URI, fetched from the target. */
export async function readResource(uri: string, client: ApiClient): Promise<ReadResourceResult> {
  const m = URI.exec(uri);
  if (!m)
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown resource ${uri}: vmv mcp serves ${TEMPLATES.map((t) => t.uriTemplate).join(', ')}`,
    );
  const [, kind, rawId, file] = m;
  const id = encodeURIComponent(decodeURIComponent(rawId));
  if (kind === 'calls' && file === 'recording') {
    const res = await client.request('GET', `/v1/calls/${id}/recording`);
    if (res.status >= 400) throw refused(uri, res);
    const mimeType = (res.headers['content-type'] ?? 'audio/wav').split(';')[0].trim();
    return { contents: [{ uri, mimeType, blob: res.body.toString('base64') }] };
  }
  const record = await client.request('GET', `/v1/${kind}/${id}`);
  if (record.status >= 400) throw refused(uri, record);
  const d = record.json<{ data: Obj }>().data;
  if (kind === 'calls') {
    if (file !== 'transcript') throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}`);
    return { contents: [{ uri, mimeType: 'text/plain', text: String(d.transcript ?? '') }] };
  }
  if (file !== 'video.mp4') throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}`);
  if (typeof d.video_url !== 'string')
    throw new McpError(
      ErrorCode.InvalidParams,
      `${uri}: the video is ${String(d.status)}; its file exists once it is ready.`,
    );
  // the signed link, fetched through the client (its origin is the target's)
  const link = new URL(d.video_url, 'http://target');
  const res = await client.request('GET', link.pathname, { query: Object.fromEntries(link.searchParams) });
  if (res.status >= 400) throw refused(uri, res);
  return { contents: [{ uri, mimeType: 'video/mp4', blob: res.body.toString('base64') }] };
}
