import sharp from 'sharp';

// A minimal but real DNG, built byte by byte: a little-endian TIFF with DNGVersion, the camera's Make/Model,
// Orientation, Copyright and an Exif IFD with DateTimeOriginal, and its previews as JPEGs in SubIFDs (what ExifTool
// reads as JpgFromRaw and OtherImage, as in a camera's DNG). No raw sensor data: Batchroom only ever reads the
// previews and the metadata. ExifTool cannot create preview IFDs itself (it only rewrites existing ones), hence this.

type Value = { type: 1 | 2 | 3 | 4; values: number[] | string } | { type: 4; ref: string };
type Ifd = { name: string; entries: Record<number, Value>; data?: Buffer };

const TYPE_SIZE = { 1: 1, 2: 1, 3: 2, 4: 4 } as const;

function encodeValue(v: Extract<Value, { values: unknown }>): Buffer {
  if (v.type === 2) return Buffer.from(`${v.values as string}\0`, 'latin1');
  const nums = v.values as number[];
  const out = Buffer.alloc(nums.length * TYPE_SIZE[v.type]);
  nums.forEach((n, i) => (v.type === 1 ? out.writeUInt8(n, i) : v.type === 3 ? out.writeUInt16LE(n, i * 2) : out.writeUInt32LE(n, i * 4)));
  return out;
}

/** Bytes an IFD's entry table and its out-of-line values take (its image data follows them). */
function tableSize(ifd: Ifd): number {
  const tags = Object.keys(ifd.entries).map(Number);
  let size = 2 + tags.length * 12 + 4;
  for (const tag of tags) {
    const v = ifd.entries[tag]!;
    if ('ref' in v) continue;
    const bytes = encodeValue(v).length;
    if (bytes > 4) size += bytes + (bytes % 2);
  }
  return size;
}

/** Lays out the IFDs one after the other (the first is IFD0), each followed by its out-of-line values and data. */
function buildTiff(ifds: Ifd[]): Buffer {
  const offsets = new Map<string, number>();
  const dataOffsets = new Map<string, number>();
  // first pass: sizes
  let at = 8;
  for (const ifd of ifds) {
    offsets.set(ifd.name, at);
    at += tableSize(ifd);
    if (ifd.data) {
      dataOffsets.set(ifd.name, at);
      at += ifd.data.length + (ifd.data.length % 2);
    }
  }
  const out = Buffer.alloc(at);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  for (const ifd of ifds) {
    let pos = offsets.get(ifd.name)!;
    const tags = Object.keys(ifd.entries).map(Number).sort((a, b) => a - b);
    let extra = pos + 2 + tags.length * 12 + 4;
    out.writeUInt16LE(tags.length, pos);
    pos += 2;
    for (const tag of tags) {
      const v = ifd.entries[tag]!;
      out.writeUInt16LE(tag, pos);
      if ('ref' in v) {
        const target = v.ref.startsWith('data:') ? dataOffsets.get(v.ref.slice(5)) : v.ref.startsWith('size:') ? ifds.find((i) => i.name === v.ref.slice(5))!.data!.length : offsets.get(v.ref);
        out.writeUInt16LE(4, pos + 2);
        out.writeUInt32LE(1, pos + 4);
        out.writeUInt32LE(target!, pos + 8);
      } else {
        const bytes = encodeValue(v);
        out.writeUInt16LE(v.type, pos + 2);
        out.writeUInt32LE(v.type === 2 ? bytes.length : (v.values as number[]).length, pos + 4);
        if (bytes.length <= 4) bytes.copy(out, pos + 8);
        else {
          out.writeUInt32LE(extra, pos + 8);
          bytes.copy(out, extra);
          extra += bytes.length + (bytes.length % 2);
        }
      }
      pos += 12;
    }
    out.writeUInt32LE(0, pos);
    if (ifd.data) ifd.data.copy(out, dataOffsets.get(ifd.name)!);
  }
  return out;
}

export interface DngOptions {
  /** The previews, largest or not, in the order they are stored (the first is JpgFromRaw, the second OtherImage). */
  previews: Buffer[];
  orientation?: number;
  make?: string;
  model?: string;
  copyright?: string;
  dateTimeOriginal?: string;
  /** The sensor's size, as IFD0's ImageWidth/ImageLength (no sensor data is stored). */
  sensor?: { width: number; height: number };
}

export function buildDng(options: DngOptions): Buffer {
  const previews = options.previews.map((jpeg, i): Ifd => ({
    name: `sub${i}`,
    data: jpeg,
    entries: {
      0x00fe: { type: 4, values: [1] },
      0x0103: { type: 3, values: [6] },
      0x0201: { type: 4, ref: `data:sub${i}` },
      0x0202: { type: 4, ref: `size:sub${i}` },
    },
  }));
  const ifd0: Ifd = {
    name: 'ifd0',
    entries: {
      0x010f: { type: 2, values: options.make ?? 'Batchroom' },
      0x0110: { type: 2, values: options.model ?? 'Test DNG' },
      0x0112: { type: 3, values: [options.orientation ?? 1] },
      0x8298: { type: 2, values: options.copyright ?? '(c) Test Photographer' },
      0x8769: { type: 4, ref: 'exif' },
      0xc612: { type: 1, values: [1, 4, 0, 0] },
    },
  };
  if (options.sensor) {
    ifd0.entries[0x0100] = { type: 4, values: [options.sensor.width] };
    ifd0.entries[0x0101] = { type: 4, values: [options.sensor.height] };
  }
  // SubIFDs: one offset each (inline when there is one, else an out-of-line list filled below)
  const exif: Ifd = { name: 'exif', entries: { 0x9003: { type: 2, values: options.dateTimeOriginal ?? '2024:06:01 14:22:33' } } };
  if (previews.length === 1) ifd0.entries[0x014a] = { type: 4, ref: 'sub0' };
  const ifds = [ifd0, exif, ...previews];
  if (previews.length > 1) {
    // two passes: lay out once to learn the SubIFD offsets, then write them as the tag's values
    ifd0.entries[0x014a] = { type: 4, values: previews.map(() => 0) };
    const first = buildTiff(ifds);
    const subOffsets = previews.map((p) => locate(first, ifds, p.name));
    ifd0.entries[0x014a] = { type: 4, values: subOffsets };
  }
  return buildTiff(ifds);
}

function locate(_tiff: Buffer, ifds: Ifd[], name: string): number {
  let at = 8;
  for (const ifd of ifds) {
    if (ifd.name === name) return at;
    at += tableSize(ifd);
    if (ifd.data) at += ifd.data.length + (ifd.data.length % 2);
  }
  throw new Error(`no IFD ${name}`);
}

/** A JPEG preview of the given size: a left-to-right gradient with a red top-left corner (to check orientation). */
export async function previewJpeg(width: number, height: number, colour = '#3080c0'): Promise<Buffer> {
  const corner = await sharp({ create: { width: Math.max(1, Math.round(width / 4)), height: Math.max(1, Math.round(height / 4)), channels: 3, background: '#ff0000' } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .composite([{ input: corner, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}
