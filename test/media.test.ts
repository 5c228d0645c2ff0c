// Video media (issue 10): a finished video's MP4 and thumbnail are real files a player opens,
// portrait 9:16 for `vertical` and landscape 16:9 for `horizontal`, read here from their bytes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLIP_SECONDS,
  THUMBNAIL_TYPE,
  VIDEO_TYPE,
  thumbnailFile,
  videoFile,
  type VideoFormat,
} from '../simulator/videos/media/index.js';
import { decodePng, imageSize, inspectMp4, pngChunks } from './media-inspect.js';

const FORMATS: { format: VideoFormat; width: number; height: number; ratio: [number, number] }[] = [
  { format: 'vertical', width: 360, height: 640, ratio: [9, 16] },
  { format: 'horizontal', width: 640, height: 360, ratio: [16, 9] },
];
const FPS = 24; // scripts/make-media.sh

it('the media types are video/mp4 and image/png', () => {
  expect(VIDEO_TYPE).toBe('video/mp4');
  expect(THUMBNAIL_TYPE).toBe('image/png');
});

describe.each(FORMATS)('the $format video', ({ format, width, height, ratio }) => {
  const file = videoFile(format);
  const mp4 = inspectMp4(file);

  it('is an MP4: ftyp first with an ISO brand, and moov before mdat so playback starts early', () => {
    expect(mp4.topLevel[0]).toBe('ftyp');
    expect(mp4.majorBrand).toBe('isom');
    expect(mp4.compatibleBrands).toEqual(expect.arrayContaining(['isom', 'avc1', 'mp41']));
    expect(mp4.topLevel.indexOf('moov')).toBeLessThan(mp4.topLevel.indexOf('mdat'));
  });
  it(`is H.264 (avc1, baseline profile) at ${width}x${height}, track header and sample entry agreeing`, () => {
    expect(mp4.codec).toBe('avc1');
    expect(mp4.avcProfile).toBe(66);
    expect([mp4.width, mp4.height]).toEqual([width, height]);
    expect([mp4.sampleWidth, mp4.sampleHeight]).toEqual([width, height]);
  });
  it(`is ${format === 'vertical' ? 'portrait' : 'landscape'} ${ratio.join(':')}`, () => {
    expect(mp4.width / mp4.height).toBeCloseTo(ratio[0] / ratio[1], 2);
    expect(mp4.width > mp4.height).toBe(format === 'horizontal');
  });
  it('lasts CLIP_SECONDS by its movie header, one sample per frame at 24 fps', () => {
    expect(mp4.durationSeconds).toBe(CLIP_SECONDS);
    expect(mp4.samples).toBe(CLIP_SECONDS * FPS);
  });
  it('is small, and decoded once: the same buffer on every call', () => {
    expect(file.length).toBeLessThan(30_000);
    expect(videoFile(format)).toBe(file);
  });
});

describe.each(FORMATS)('the $format thumbnail', ({ format, width, height }) => {
  const file = thumbnailFile(format);

  it(`is a PNG at ${width}x${height}, the video's orientation`, () => {
    expect(imageSize(file)).toEqual({ type: 'png', width, height });
  });
  it('has IHDR first, IEND last, every CRC right, and image data that inflates to every row', () => {
    const chunks = pngChunks(file);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(chunks.filter((c) => !c.crcOk)).toEqual([]);
    expect(decodePng(file).width).toBe(width);
  });
  it("shows the clip's blue, lighter at the top, with a white play button in the middle", () => {
    const png = decodePng(file);
    const cx = Math.floor(width / 2),
      cy = Math.floor(height / 2),
      r = Math.min(width, height) * 0.16;
    const blue = (p: number[]) => p[2] > 100 && p[2] > p[0] + 50;
    const white = (p: number[]) => p.every((v) => v === 255);
    const [top, bottom] = [png.pixel(0, 0), png.pixel(width - 1, height - 1)];
    expect(blue(top) && blue(bottom)).toBe(true);
    expect(top[2]).toBeGreaterThan(bottom[2]);
    expect(white(png.pixel(Math.round(cx - 0.7 * r), cy))).toBe(true); // the disc, left of the triangle
    expect(white(png.pixel(cx, Math.round(cy - 0.8 * r)))).toBe(true); // the disc, above it
    expect(blue(png.pixel(cx, cy))).toBe(true); // the triangle
    expect(blue(png.pixel(Math.round(cx - 1.2 * r), cy))).toBe(true); // outside the disc
  });
  it('is drawn once: the same bytes on every call', () => {
    expect(thumbnailFile(format)).toBe(file);
  });
});

describe('a player opens the clips (ffprobe; skipped where ffmpeg is not installed, as in CI)', () => {
  const ffprobe = spawnSync('ffprobe', ['-version']).status === 0;
  const NO_FFPROBE =
    'ffprobe is not installed (apt-get install ffmpeg): vmv needs no ffmpeg, this only plays its clips';
  const dir = mkdtempSync(join(tmpdir(), 'vmv-media-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const probe = (file: Buffer, name: string, ...args: string[]) => {
    const path = join(dir, name);
    writeFileSync(path, file);
    const r = spawnSync('ffprobe', ['-v', 'error', ...args, '-show_streams', '-of', 'json', path], {
      encoding: 'utf8',
    });
    return {
      status: r.status,
      errors: r.stderr,
      streams: JSON.parse(r.stdout || '{"streams":[]}').streams as Record<string, unknown>[],
    };
  };

  it.for(FORMATS)(
    'ffprobe decodes every frame of the $format clip without an error',
    ({ format, width, height }, ctx) => {
      if (!ffprobe) return ctx.skip(NO_FFPROBE);
      const r = probe(videoFile(format), `${format}.mp4`, '-count_frames');
      expect(r.errors).toBe('');
      expect(r.status).toBe(0);
      expect(r.streams).toHaveLength(1); // no audio track
      expect(r.streams[0]).toMatchObject({
        codec_name: 'h264',
        width,
        height,
        pix_fmt: 'yuv420p',
        nb_read_frames: String(CLIP_SECONDS * FPS),
      });
    },
  );
  it.for(FORMATS)('ffprobe reads the $format thumbnail as a PNG of its size', ({ format, width, height }, ctx) => {
    if (!ffprobe) return ctx.skip(NO_FFPROBE);
    const r = probe(thumbnailFile(format), `${format}.png`);
    expect(r.errors).toBe('');
    expect(r.streams[0]).toMatchObject({ codec_name: 'png', width, height });
  });
});

describe('the inspectors refuse what is not a well-formed file', () => {
  const mp4 = videoFile('vertical');
  const thumb = thumbnailFile('vertical');

  it('inspectMp4: a cut-short file, a file without ftyp, and no moov are errors saying so', () => {
    expect(() => inspectMp4(mp4.subarray(0, 500))).toThrow(
      /MP4 file: box 'moov' at offset \d+ claims \d+ bytes, only \d+ remain/,
    );
    expect(() => inspectMp4(thumb)).toThrow(/MP4/);
    const ftypOnly = mp4.subarray(0, mp4.readUInt32BE(0));
    expect(() => inspectMp4(ftypOnly)).toThrow("MP4: no 'moov' box in the file");
  });
  it('imageSize: neither PNG nor JPEG is an error; a JPEG gives its frame size', () => {
    expect(() => imageSize(mp4)).toThrow(/not a PNG or JPEG/);
    // SOI, an APP0 segment, then a baseline frame header for 2x3
    const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000ffc0000b080003000201011100ffd9', 'hex');
    expect(imageSize(jpeg)).toEqual({ type: 'jpeg', width: 2, height: 3 });
  });
  it("pngChunks: a flipped bit fails that chunk's CRC only; a cut-short PNG is an error", () => {
    const bent = Buffer.from(thumb);
    bent[50] ^= 1; // in the IDAT data (the signature and IHDR take 33 bytes, IDAT's header 8)
    expect(pngChunks(bent).map((c) => [c.type, c.crcOk])).toEqual([
      ['IHDR', true],
      ['IDAT', false],
      ['IEND', true],
    ]);
    expect(() => decodePng(bent)).toThrow("PNG: chunk 'IDAT' fails its CRC");
    expect(() => pngChunks(thumb.subarray(0, thumb.length - 4))).toThrow(/PNG: 8 stray bytes at offset/);
  });
});
