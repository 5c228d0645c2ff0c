// Signed media links: a video's MP4 and thumbnail are served without an API key at a path signed
// with an HMAC of the path under the store's secret. The links never expire (nothing in them is
// time-bound); a changed path or signature is refused with 403.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const MEDIA_FILES = { video: 'video.mp4', thumbnail: 'thumbnail.png' } as const;
export type MediaFile = (typeof MEDIA_FILES)[keyof typeof MEDIA_FILES];

export const mediaPath = (videoId: string, file: MediaFile) =>
  `/v1/media/videos/${encodeURIComponent(videoId)}/${file}`;

const mac = (secret: string, path: string) =>
  createHmac('sha256', secret).update(`media:${path}`).digest('base64url').slice(0, 32);

export const signedLink = (origin: string, secret: string, videoId: string, file: MediaFile) => {
  const path = mediaPath(videoId, file);
  return `${origin}${path}?sig=${mac(secret, path)}`;
};

export function validSignature(secret: string, path: string, sig: string): boolean {
  const expected = Buffer.from(mac(secret, path));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
