// Test helpers that read real media bytes, with no dependencies: an MP4's boxes (ISO/IEC 14496-12:
// brands, the video track's codec and size, the duration), an image's type and size, and a PNG's
// chunks, CRCs and pixels. Anything malformed throws an Error saying what and where.
import { inflateSync } from 'node:zlib';

export interface Mp4Info {
  majorBrand: string;
  compatibleBrands: string[];
  /** the video track's sample entry, e.g. 'avc1' */
  codec: string;
  /** the video track's presentation size (tkhd, 16.16 fixed point) */
  width: number;
  height: number;
  /** the coded picture size in the sample entry (avc1 …) */
  sampleWidth: number;
  sampleHeight: number;
  /** AVCProfileIndication from avcC (66 baseline, 77 main, 100 high); null for other codecs */
  avcProfile: number | null;
  /** the movie header's duration / timescale */
  durationSeconds: number;
  /** the video track's sample count (stsz) */
  samples: number;
  /** the top-level boxes in file order, e.g. ['ftyp', 'moov', 'mdat'] */
  topLevel: string[];
}

interface Box {
  type: string;
  /** offsets into the file: the box's first byte, its content (after the header), its end */
  start: number;
  content: number;
  end: number;
}

/** The boxes laid end to end in buf[from, to). */
function boxes(buf: Buffer, from: number, to: number, where: string): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at < to) {
    if (to - at < 8) throw new Error(`MP4 ${where}: ${to - at} stray bytes at offset ${at}`);
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let content = at + 8;
    if (size === 1) {
      if (to - at < 16) throw new Error(`MP4 ${where}: box '${type}' at offset ${at} is cut short in its 64-bit size`);
      size = Number(buf.readBigUInt64BE(at + 8));
      content = at + 16;
    } else if (size === 0) {
      size = to - at; // to the end of the enclosing space
    }
    if (size < content - at)
      throw new Error(`MP4 ${where}: box '${type}' at offset ${at} has an impossible size ${size}`);
    if (at + size > to)
      throw new Error(`MP4 ${where}: box '${type}' at offset ${at} claims ${size} bytes, only ${to - at} remain`);
    out.push({ type, start: at, content, end: at + size });
    at += size;
  }
  return out;
}

const childrenOf = (buf: Buffer, box: Box, path: string) => boxes(buf, box.content, box.end, path);

function one(list: Box[], type: string, path: string): Box {
  const found = list.filter((b) => b.type === type);
  if (found.length !== 1) throw new Error(`MP4: ${found.length ? 'more than one' : 'no'} '${type}' box in ${path}`);
  return found[0];
}

function need(box: Box, bytes: number, path: string): void {
  if (box.end - box.content < bytes)
    throw new Error(`MP4: '${path}' has ${box.end - box.content} bytes of content, needs ${bytes}`);
}

/** Reads an MP4: the file type, the movie header and the first video track. */
export function inspectMp4(buf: Buffer): Mp4Info {
  const top = boxes(buf, 0, buf.length, 'file');
  if (top[0]?.type !== 'ftyp')
    throw new Error(`MP4: the file starts with '${top[0]?.type ?? 'nothing'}', not an 'ftyp' box`);
  const ftyp = top[0];
  need(ftyp, 8, 'ftyp');
  if ((ftyp.end - ftyp.content) % 4 !== 0) throw new Error('MP4: ftyp brands are not whole four-character codes');
  const majorBrand = buf.toString('latin1', ftyp.content, ftyp.content + 4);
  const compatibleBrands: string[] = [];
  for (let at = ftyp.content + 8; at < ftyp.end; at += 4) compatibleBrands.push(buf.toString('latin1', at, at + 4));

  const moov = one(top, 'moov', 'the file');
  const inMoov = childrenOf(buf, moov, 'moov');
  const mvhd = one(inMoov, 'mvhd', 'moov');
  need(mvhd, 4, 'moov/mvhd');
  const mvhdVersion = buf[mvhd.content];
  need(mvhd, mvhdVersion === 1 ? 32 : 20, 'moov/mvhd');
  const timescale = buf.readUInt32BE(mvhd.content + (mvhdVersion === 1 ? 20 : 12));
  const duration =
    mvhdVersion === 1 ? Number(buf.readBigUInt64BE(mvhd.content + 24)) : buf.readUInt32BE(mvhd.content + 16);
  if (timescale === 0) throw new Error('MP4: moov/mvhd has a timescale of 0');

  // the first track whose handler is 'vide'
  let video: { trak: Box; mdia: Box } | undefined;
  for (const trak of inMoov.filter((b) => b.type === 'trak')) {
    const mdia = one(childrenOf(buf, trak, 'moov/trak'), 'mdia', 'moov/trak');
    const hdlr = one(childrenOf(buf, mdia, 'trak/mdia'), 'hdlr', 'trak/mdia');
    need(hdlr, 12, 'mdia/hdlr');
    if (buf.toString('latin1', hdlr.content + 8, hdlr.content + 12) === 'vide') {
      video = { trak, mdia };
      break;
    }
  }
  if (!video) throw new Error('MP4: no video track (no trak whose hdlr is "vide")');

  const tkhd = one(childrenOf(buf, video.trak, 'moov/trak'), 'tkhd', 'moov/trak');
  need(tkhd, 4, 'trak/tkhd');
  const sizeAt = tkhd.content + (buf[tkhd.content] === 1 ? 88 : 76);
  need(tkhd, sizeAt + 8 - tkhd.content, 'trak/tkhd');
  const width = buf.readUInt32BE(sizeAt) / 65536;
  const height = buf.readUInt32BE(sizeAt + 4) / 65536;

  const minf = one(childrenOf(buf, video.mdia, 'trak/mdia'), 'minf', 'trak/mdia');
  const stbl = one(childrenOf(buf, minf, 'mdia/minf'), 'stbl', 'mdia/minf');
  const inStbl = childrenOf(buf, stbl, 'minf/stbl');
  const stsd = one(inStbl, 'stsd', 'minf/stbl');
  need(stsd, 8, 'stbl/stsd');
  if (buf.readUInt32BE(stsd.content + 4) < 1) throw new Error('MP4: stbl/stsd lists no sample entry');
  const entry = boxes(buf, stsd.content + 8, stsd.end, 'stbl/stsd')[0];
  if (!entry) throw new Error('MP4: stbl/stsd counts a sample entry but holds none');
  // a visual sample entry: 6 reserved, data reference index (2), 16 pre-defined/reserved, then width and height
  need(entry, 78, `stsd/${entry.type} (a visual sample entry)`);
  const sampleWidth = buf.readUInt16BE(entry.content + 24);
  const sampleHeight = buf.readUInt16BE(entry.content + 26);
  let avcProfile: number | null = null;
  if (entry.type === 'avc1' || entry.type === 'avc3') {
    const avcC = one(boxes(buf, entry.content + 78, entry.end, `stsd/${entry.type}`), 'avcC', `stsd/${entry.type}`);
    need(avcC, 4, `${entry.type}/avcC`);
    if (buf[avcC.content] !== 1)
      throw new Error(`MP4: ${entry.type}/avcC has configuration version ${buf[avcC.content]}, not 1`);
    avcProfile = buf[avcC.content + 1];
  }

  const stsz = one(inStbl, 'stsz', 'minf/stbl');
  need(stsz, 12, 'stbl/stsz');
  const samples = buf.readUInt32BE(stsz.content + 8);
  // every chunk the sample table points at starts inside an mdat
  const mdats = top.filter((b) => b.type === 'mdat');
  const stco = inStbl.find((b) => b.type === 'stco' || b.type === 'co64');
  if (!stco) throw new Error('MP4: minf/stbl has no chunk offsets (stco or co64)');
  need(stco, 8, `stbl/${stco.type}`);
  const chunks = buf.readUInt32BE(stco.content + 4);
  const wide = stco.type === 'co64';
  need(stco, 8 + chunks * (wide ? 8 : 4), `stbl/${stco.type}`);
  for (let i = 0; i < chunks; i++) {
    const at = wide
      ? Number(buf.readBigUInt64BE(stco.content + 8 + i * 8))
      : buf.readUInt32BE(stco.content + 8 + i * 4);
    if (!mdats.some((m) => at >= m.content && at < m.end))
      throw new Error(`MP4: chunk ${i + 1} at offset ${at} is not inside an mdat box`);
  }

  return {
    majorBrand,
    compatibleBrands,
    codec: entry.type,
    width,
    height,
    sampleWidth,
    sampleHeight,
    avcProfile,
    durationSeconds: duration / timescale,
    samples,
    topLevel: top.map((b) => b.type),
  };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An image's type and size: PNG from IHDR, JPEG from its first SOF0/SOF1/SOF2 frame header. */
export function imageSize(buf: Buffer): { type: 'png' | 'jpeg'; width: number; height: number } {
  if (buf.subarray(0, 8).equals(PNG_SIGNATURE)) {
    if (buf.length < 33) throw new Error(`PNG: ${buf.length} bytes, too short for an IHDR chunk`);
    if (buf.toString('latin1', 12, 16) !== 'IHDR' || buf.readUInt32BE(8) !== 13)
      throw new Error('PNG: the first chunk is not a 13-byte IHDR');
    const width = buf.readUInt32BE(16);
    const height = buf.readUInt32BE(20);
    if (!width || !height) throw new Error(`PNG: IHDR says ${width}x${height}`);
    return { type: 'png', width, height };
  }
  if (buf[0] === 0xff && buf[1] === 0xd8) {
    let at = 2;
    while (at + 4 <= buf.length) {
      if (buf[at] !== 0xff) throw new Error(`JPEG: expected a marker at offset ${at}`);
      const marker = buf[at + 1];
      if (marker === 0xff) {
        at++;
        continue;
      } // fill byte
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2;
        continue;
      } // no length
      if (marker === 0xd9 || marker === 0xda) break; // end of image, or scan data before any frame header
      const length = buf.readUInt16BE(at + 2);
      if (length < 2 || at + 2 + length > buf.length)
        throw new Error(`JPEG: segment 0x${marker.toString(16)} at offset ${at} runs past the end`);
      if (marker >= 0xc0 && marker <= 0xc2) {
        if (length < 7) throw new Error('JPEG: frame header too short');
        const height = buf.readUInt16BE(at + 5);
        const width = buf.readUInt16BE(at + 7);
        if (!width || !height) throw new Error(`JPEG: frame header says ${width}x${height}`);
        return { type: 'jpeg', width, height };
      }
      at += 2 + length;
    }
    throw new Error('JPEG: no SOF0/SOF1/SOF2 frame header');
  }
  throw new Error(`not a PNG or JPEG (starts ${buf.subarray(0, 8).toString('hex') || 'empty'})`);
}

export interface PngChunk {
  type: string;
  data: Buffer;
  crc: number;
  /** the CRC-32 computed over type and data matches the stored one */
  crcOk: boolean;
}

/** A PNG's chunks in order, each with its CRC checked; the signature, IHDR first and IEND last are required. */
export function pngChunks(buf: Buffer): PngChunk[] {
  if (!buf.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('PNG: no PNG signature');
  const out: PngChunk[] = [];
  let at = 8;
  while (at < buf.length) {
    if (buf.length - at < 12) throw new Error(`PNG: ${buf.length - at} stray bytes at offset ${at}`);
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > buf.length)
      throw new Error(
        `PNG: chunk '${type}' at offset ${at} claims ${length} bytes, only ${buf.length - at - 12} remain`,
      );
    const crc = buf.readUInt32BE(at + 8 + length);
    out.push({
      type,
      data: buf.subarray(at + 8, at + 8 + length),
      crc,
      crcOk: crc32(buf.subarray(at + 4, at + 8 + length)) === crc,
    });
    at += 12 + length;
    if (type === 'IEND') break;
  }
  if (out[0]?.type !== 'IHDR') throw new Error('PNG: the first chunk is not IHDR');
  if (out.at(-1)?.type !== 'IEND') throw new Error('PNG: no IEND chunk');
  if (at !== buf.length) throw new Error(`PNG: ${buf.length - at} bytes after IEND`);
  return out;
}

/** Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what the simulator makes) to its pixels. */
export function decodePng(buf: Buffer): { width: number; height: number; pixel(x: number, y: number): number[] } {
  const chunks = pngChunks(buf);
  const bad = chunks.find((c) => !c.crcOk);
  if (bad) throw new Error(`PNG: chunk '${bad.type}' fails its CRC`);
  const ihdr = chunks[0].data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const [depth, colour, , , interlace] = ihdr.subarray(8);
  if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
    throw new Error(
      `PNG: decodePng reads 8-bit RGB/RGBA without interlace, not depth ${depth} colour type ${colour} interlace ${interlace}`,
    );
  }
  const bpp = colour === 6 ? 4 : 3;
  const stride = width * bpp;
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  if (raw.length !== height * (1 + stride))
    throw new Error(
      `PNG: image data inflates to ${raw.length} bytes, ${width}x${height} needs ${height * (1 + stride)}`,
    );
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (1 + stride)];
    const line = raw.subarray(y * (1 + stride) + 1, (y + 1) * (1 + stride));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? px[y * stride + i - bpp] : 0; // left
      const b = y > 0 ? px[(y - 1) * stride + i] : 0; // up
      const c = i >= bpp && y > 0 ? px[(y - 1) * stride + i - bpp] : 0; // up-left
      let predicted: number;
      switch (filter) {
        case 0:
          predicted = 0;
          break;
        case 1:
          predicted = a;
          break;
        case 2:
          predicted = b;
          break;
        case 3:
          predicted = (a + b) >> 1;
          break;
        case 4:
          predicted = paeth(a, b, c);
          break;
        default:
          throw new Error(`PNG: row ${y} has unknown filter type ${filter}`);
      }
      px[y * stride + i] = (line[i] + predicted) & 0xff;
    }
  }
  return { width, height, pixel: (x, y) => [...px.subarray(y * stride + x * bpp, y * stride + (x + 1) * bpp)] };
}

/** PNG's Paeth predictor: of left, up and up-left, the one nearest left + up - up-left (ties in that order). */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  if (pb <= pc) return b;
  return c;
}

/** CRC-32 (ISO-HDLC, as PNG uses), bit by bit: slow and plain, on purpose unlike the simulator's table. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
