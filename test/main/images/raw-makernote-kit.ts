// TIFF-based RAWs with a maker's MakerNote, built byte by byte, for the containers the stored ExifTool samples
// (test/fixtures/raw) do not cover: a Sony ARW (a plain TIFF, MakerNote "SONY DSC ") and an Olympus ORF (magic
// "IIRO", MakerNote "OLYMPUS\0II"). ExifTool cannot create a MakerNote (it only rewrites or copies one), hence this.
// Only inline values (≤ 4 bytes) in the MakerNote, so no offset base matters. No sensor data or previews: the
// metadata copy reads neither.

type Entry = { tag: number; type: 3 | 4; value: number };

export interface MakerNoteRaw {
  /** 42 for a plain TIFF (ARW), 0x4f52 ("RO") for an ORF. */
  magic: number;
  make: string;
  model: string;
  /** The MakerNote's maker header, then an IFD of these entries. */
  header: Buffer;
  entries: Entry[];
}

function ifd(entries: { tag: number; type: number; count: number; value: Buffer | number }[], at: number): Buffer {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  const table = Buffer.alloc(2 + sorted.length * 12 + 4);
  let extra = Buffer.alloc(0);
  table.writeUInt16LE(sorted.length, 0);
  sorted.forEach((e, i) => {
    const pos = 2 + i * 12;
    table.writeUInt16LE(e.tag, pos);
    table.writeUInt16LE(e.type, pos + 2);
    table.writeUInt32LE(e.count, pos + 4);
    if (typeof e.value === 'number') {
      if (e.type === 3) table.writeUInt16LE(e.value, pos + 8);
      else table.writeUInt32LE(e.value, pos + 8);
    } else {
      table.writeUInt32LE(at + table.length + extra.length, pos + 8);
      extra = Buffer.concat([extra, e.value, Buffer.alloc(e.value.length % 2)]);
    }
  });
  return Buffer.concat([table, extra]);
}

const ascii = (s: string) => Buffer.from(`${s}\0`, 'latin1');

export function buildMakerNoteRaw(raw: MakerNoteRaw): Buffer {
  const note = Buffer.concat([raw.header, ifd(raw.entries.map((e) => ({ ...e, count: 1 })), 0)]);
  const make = ascii(raw.make);
  const model = ascii(raw.model);
  // IFD0 (3 entries) at 8, its strings after it; the Exif IFD after that.
  const ifd0Size = 2 + 3 * 12 + 4 + make.length + (make.length % 2) + model.length + (model.length % 2);
  const exifAt = 8 + ifd0Size;
  const ifd0 = ifd([
    { tag: 0x010f, type: 2, count: make.length, value: make },
    { tag: 0x0110, type: 2, count: model.length, value: model },
    { tag: 0x8769, type: 4, count: 1, value: exifAt },
  ], 8);
  const date = ascii('2024:06:01 14:22:33');
  const exif = ifd([
    { tag: 0x9003, type: 2, count: date.length, value: date },
    { tag: 0x927c, type: 7, count: note.length, value: note },
  ], exifAt);
  const head = Buffer.alloc(8);
  head.write('II', 0, 'latin1');
  head.writeUInt16LE(raw.magic, 2);
  head.writeUInt32LE(8, 4);
  return Buffer.concat([head, ifd0, exif]);
}

/** A Sony ARW's MakerNote: quality, creative settings and lens as an α7 III writes them (values only). */
export const SONY_ARW: MakerNoteRaw = {
  magic: 42, make: 'SONY', model: 'ILCE-7M3', header: Buffer.from('SONY DSC \0\0\0', 'latin1'),
  entries: [
    { tag: 0x0102, type: 4, value: 0 }, // Quality: RAW
    { tag: 0xb025, type: 4, value: 1 }, // DynamicRangeOptimizer: Standard
    { tag: 0xb026, type: 4, value: 1 }, // ImageStabilization: On
    { tag: 0xb027, type: 4, value: 65535 }, // LensType: E-mount (the lens is in LensType2)
    { tag: 0xb029, type: 4, value: 0 }, // ColorMode: Standard
    { tag: 0xb041, type: 3, value: 0 }, // ExposureMode: Program AE
  ],
};

/** An Olympus ORF's MakerNote (the "OLYMPUS\0II" kind every E-M body writes). */
export const OLYMPUS_ORF: MakerNoteRaw = {
  magic: 0x4f52, make: 'OLYMPUS IMAGING CORP.', model: 'E-M5', header: Buffer.from('OLYMPUS\0II\x03\0', 'latin1'),
  entries: [
    { tag: 0x0201, type: 3, value: 2 }, // Quality
    { tag: 0x0202, type: 3, value: 0 }, // Macro: Off
    { tag: 0x0203, type: 3, value: 0 }, // BWMode: Off
    { tag: 0x0104, type: 4, value: 0x00010000 }, // BodyFirmwareVersion
  ],
};
