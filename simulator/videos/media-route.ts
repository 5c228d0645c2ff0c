// A ready video's files at their signed links (GET /v1/media/videos/{id}/…): no API key, a link
// that does not match its signature refused, one byte range served as 206 when asked.
import { ApiError, notFound } from '../core/errors.js';
import { route, type Ctx } from '../core/http.js';
import { byteRange, rangeNotSatisfiable } from '../core/request.js';
import { obj, str } from '../core/schema.js';
import { MEDIA_FILES, mediaPath, validSignature, type MediaFile } from './links.js';
import { videoById } from './machine.js';
import { Id } from './route-parts.js';

// ---- the media links ----

/** A ready video's file, at its signed link; one byte range when asked (players seek with them). */
async function media(c: Ctx<{ id: string }, { sig?: string }>, file: MediaFile) {
  const path = mediaPath(c.params.id, file);
  if (!c.query.sig || !validSignature(c.data.meta.secret, path, c.query.sig))
    throw new ApiError(
      403,
      'forbidden',
      'This media link is not valid (its signature does not match); use video_url or thumbnail_url as returned.',
    );
  const v = videoById(c.data, c.params.id);
  if (!v || v.status !== 'ready') throw notFound('This video does not exist, or is not ready.');
  const m = await import('./media/index.js');
  const bytes = file === MEDIA_FILES.video ? m.videoFile(v.format) : m.thumbnailFile(v.format);
  const contentType = file === MEDIA_FILES.video ? m.VIDEO_TYPE : m.THUMBNAIL_TYPE;
  // the file behind a link never changes: caches may keep it
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    'cache-control': 'public, max-age=31536000, immutable',
  };
  const range = byteRange(c.header('range'), bytes.length);
  if (range === 'unsatisfiable') throw rangeNotSatisfiable(bytes.length);
  if (!range) return { headers, raw: { bytes, contentType } };
  return {
    status: 206,
    headers: { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${bytes.length}` },
    raw: { bytes: bytes.subarray(range.start, range.end + 1), contentType },
  };
}

export const mediaRoute = (file: MediaFile, what: string, contentType: string) =>
  route({
    method: 'GET',
    path: `/v1/media/videos/{id}/${file}`,
    public: true,
    summary: `Download a video's ${what} (signed link)`,
    description:
      `The ${what} of a ready video, at the signed link the video record gives. No API key; the link does not expire; a changed link is 403. ` +
      'HEAD is answered too, and a single `Range: bytes=…` is served as 206 Partial Content (players seek with them).',
    params: Id,
    query: obj({ sig: str({ min: 1, max: 100, description: "the link's signature" }) }, { required: ['sig'] }),
    responses: {
      200: { description: `The ${what}`, contentType },
      206: {
        description: 'The range asked for',
        contentType,
        headers: {
          'Content-Range': {
            description: 'which bytes of the file these are',
            schema: { type: 'string', example: 'bytes 0-1023/4704' },
          },
        },
      },
    },
    errors: { 403: ['forbidden'], 416: ['range_not_satisfiable'] },
    handler: (c) => media(c, file),
  });
