// A finished video's media: a real playable MP4 (H.264, shipped as bytes in clips.ts, made by
// scripts/make-media.sh) and a PNG thumbnail drawn here, portrait 9:16 for `vertical` and
// landscape 16:9 for `horizontal`. Both are built on first use, cached, and the same bytes on
// every run. No file is read at run time: the simulator ships as one bundled file.
import { constants, deflateSync, inflateRawSync } from 'node:zlib';
import { CLIP_SECONDS, horizontalMp4Deflated, verticalMp4Deflated } from './clips.js';

export type VideoFormat = 'vertical' | 'horizontal';

export const VIDEO_TYPE = 'video/mp4';
export const THUMBNAIL_TYPE = 'image/png';
/** The clips' real duration (what the MP4's movie header says). */
export { CLIP_SECONDS };

const SIZE: Record<VideoFormat, { width: number; height: number }> = {
  vertical: { width: 360, height: 640 },
  horizontal: { width: 640, height: 360 },
};

const videos = new Map<VideoFormat, Buffer>();
const thumbnails = new Map<VideoFormat, Buffer>();

/** The MP4 file for a format (decoded once; callers must not modify the buffer). */
export function videoFile(format: VideoFormat): Buffer {
  let file = videos.get(format);
  if (!file) {
    // base64 (the decoder skips the line breaks) of the raw-deflated file
    file = inflateRawSync(Buffer.from(format === 'vertical' ? verticalMp4Deflated : horizontalMp4Deflated, 'base64'));
    videos.set(format, file);
  }
  return file;
}

/** The PNG thumbnail for a format (drawn once; callers must not modify the buffer). */
export function thumbnailFile(format: VideoFormat): Buffer {
  let file = thumbnails.get(format);
  if (!file) {
    const { width, height } = SIZE[format];
    file = png(width, height, drawThumbnail(width, height));
    thumbnails.set(format, file);
  }
  return file;
}

// The clip's background colour (BG in scripts/make-media.sh) with a white play button.
const BG = [0x1f, 0x4e, 0x79];

/**
 * RGB rows, each led by PNG filter byte 1 (Sub: each byte minus the one a pixel to its left), so a
 * flat stretch is zeros and only the edges of the button are written. This runs once, before the
 * JIT has optimized anything, so the loops do as little as they can.
 */
function drawThumbnail(width: number, height: number): Buffer {
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(stride * height); // zeros: "same as the pixel to the left"
  const { side, cover } = playButton(Math.min(width, height));
  const x0 = Math.round((width - side) / 2);
  const y0 = Math.round((height - side) / 2);
  const bg = [0, 0, 0];
  for (let y = 0; y < height; y++) {
    // a slight vertical gradient: lighter at the top
    const shade = 1 + 0.18 * (1 - (y + 0.5) / height);
    for (let c = 0; c < 3; c++) bg[c] = Math.round(Math.min(255, BG[c] * shade));
    const at = y * stride;
    raw[at] = 1;
    raw[at + 1] = bg[0];
    raw[at + 2] = bg[1];
    raw[at + 3] = bg[2];
    const j = y - y0;
    if (j < 0 || j >= side) continue;
    // only where the coverage changes is a difference written; the square's border is background,
    // so the row is back to the background colour by its end
    const out = at + 1 + x0 * 3;
    let was = 0;
    let r = bg[0],
      g = bg[1],
      b = bg[2];
    for (let i = 0; i < side; i++) {
      const w = cover[j * side + i];
      if (w === was) continue;
      was = w;
      const nr = blend(bg[0], w),
        ng = blend(bg[1], w),
        nb = blend(bg[2], w);
      raw[out + i * 3] = (nr - r) & 0xff;
      raw[out + i * 3 + 1] = (ng - g) & 0xff;
      raw[out + i * 3 + 2] = (nb - b) & 0xff;
      (r = nr), (g = ng), (b = nb);
    }
  }
  return raw;
}

/** A colour channel `shade` toward white by coverage `w` (0..255). */
const blend = (shade: number, w: number) => shade + Math.round(((255 - shade) * w) / 255);

let button: { shorter: number; side: number; cover: Uint8Array } | undefined;
/**
 * The play button for a thumbnail whose shorter side is `shorter`: white coverage 0..255 over a
 * square with a background border, a disc minus a right-pointing triangle, edges anti-aliased by
 * their distance to each pixel's centre. Both formats share it (their shorter side is 360).
 */
function playButton(shorter: number): { side: number; cover: Uint8Array } {
  if (button?.shorter === shorter) return button;
  const r = shorter * 0.16;
  const side = 2 * Math.ceil(r + 2);
  const c = side / 2; // the centre, on a pixel corner
  // the triangle's corners, counter-clockwise on screen, its centroid on the disc's centre
  const s = r * 0.55;
  const corners = [
    [c - s / 2, c - s * 0.866],
    [c - s / 2, c + s * 0.866],
    [c + s, c],
  ];
  // each edge as a signed distance a·x + b·y + d, positive inside
  const [[a0, b0, d0], [a1, b1, d1], [a2, b2, d2]] = corners.map(([ax, ay], i) => {
    const [bx, by] = corners[(i + 1) % 3];
    const len = Math.hypot(bx - ax, by - ay);
    const a = (by - ay) / len,
      b = -(bx - ax) / len;
    return [a, b, -(a * ax + b * ay)];
  });
  const cover = new Uint8Array(side * side);
  const outside = (r + 0.5) ** 2,
    inside = (r - 0.5) ** 2;
  // the top half, mirrored to the bottom (the button is symmetric about its horizontal centre line);
  // in each row only the disc's span, and square roots only on its rim
  for (let j = 0; j < side / 2; j++) {
    const y = j + 0.5;
    const dy2 = (y - c) ** 2;
    if (dy2 >= outside) continue;
    const half = Math.sqrt(outside - dy2);
    const t0 = b0 * y + d0 + 0.5,
      t1 = b1 * y + d1 + 0.5,
      t2 = b2 * y + d2 + 0.5;
    for (let i = Math.max(0, Math.floor(c - half)); i <= Math.min(side - 1, Math.ceil(c + half)); i++) {
      const x = i + 0.5;
      const dist2 = (x - c) ** 2 + dy2;
      if (dist2 >= outside) continue;
      // coverage 0..1 from the distance to an edge, for soft (anti-aliased) edges
      const disc = dist2 > inside ? r + 0.5 - Math.sqrt(dist2) : 1;
      const tri = clamp01(Math.min(a0 * x + t0, a1 * x + t1, a2 * x + t2));
      cover[j * side + i] = cover[(side - 1 - j) * side + i] = Math.round(255 * disc * (1 - tri));
    }
  }
  button = { shorter, side, cover };
  return button;
}

/** `v` held between 0 and 1 (a coverage). */
function clamp01(v: number): number {
  if (v < 0) return 0;
  return v > 1 ? 1 : v;
}

/** A truecolour 8-bit PNG from filtered rows: signature, IHDR, one IDAT, IEND. */
function png(width: number, height: number, filtered: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  // compression, filter method and interlace are all 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    // run-length matching suits rows of zeros: a few ms cold, where the default search takes ~10
    chunk('IDAT', deflateSync(filtered, { strategy: constants.Z_RLE })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

// zlib.crc32 arrived in Node 20.15 and the package supports 20.11, so a table-based CRC-32 (ISO-HDLC, as PNG uses).
let table: Uint32Array | undefined;
function crc32(bytes: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
