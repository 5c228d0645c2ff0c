// What the videos' route files share: the path parameters, the video or post an id names in the
// caller's workspace (404 otherwise), and the reply of one video.
import { notFound } from '../core/errors.js';
import type { Ctx } from '../core/http.js';
import { dataOf, obj, uuid } from '../core/schema.js';
import { VideoSchema, type VideoRecord } from './records.js';
import { videoById } from './machine.js';

export const Id = obj({ id: uuid('the video id') }, { required: ['id'] });
export const PostId = obj({ id: uuid('the post id') }, { required: ['id'] });

export function findVideo(c: Ctx<{ id: string }, any, any>): VideoRecord {
  const v = videoById(c.data, c.params.id);
  if (!v || v.workspace_id !== c.auth.workspace.id) throw notFound(`No video ${c.params.id} in this workspace.`);
  return v;
}

export const video = (description: string) => ({ 200: { description, schema: dataOf(VideoSchema) } });
