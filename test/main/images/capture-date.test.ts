import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDateValue, parseOffset, pickCaptureMoment } from '../../../main/core/images/capture-date';
import { parseExifDate } from '../../../main/core/images/capture';

// Which capture value and which offset win, on ExifTool's `-j -G1` output as it comes for real files. Run in a zone
// that is none of the photos' (Asia/Kolkata, +05:30), so a value wrongly read as local time is 5½ h or more off.

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('pickCaptureMoment', () => {
  const savedZone = process.env.TZ;
  beforeAll(() => { process.env.TZ = 'Asia/Kolkata'; });
  afterAll(() => {
    if (savedZone === undefined) delete process.env.TZ;
    else process.env.TZ = savedZone;
  });

  it('the value\'s own offset wins over EXIF\'s OffsetTime tags', () => {
    const m = pickCaptureMoment({ 'XMP-exif:DateTimeOriginal': '2024:05:01 10:00:00-06:00', 'ExifIFD:OffsetTime': '+02:00' });
    expect(m).toMatchObject({ date: '2024-05-01', time: '100000', offset: '-06:00' });
    expect(iso(m?.ms)).toBe('2024-05-01T16:00:00.000Z');
  });

  it('EXIF DateTimeOriginal is the capture; its OffsetTimeOriginal before an XMP copy\'s offset', () => {
    const m = pickCaptureMoment({
      'ExifIFD:DateTimeOriginal': '2024:05:01 10:00:00', 'ExifIFD:OffsetTimeOriginal': '+02:00', 'XMP-exif:DateTimeOriginal': '2024:05:01 10:00:00-06:00',
    });
    expect(iso(m?.ms)).toBe('2024-05-01T08:00:00.000Z');
  });

  it('EXIF without an offset takes the one written with the same wall clock elsewhere (XMP, IPTC, FLIR)', () => {
    for (const other of [
      { 'XMP-photoshop:DateCreated': '2024:05:01 10:00:00-06:00' },
      { 'IPTC:DateCreated': '2024:05:01', 'IPTC:TimeCreated': '10:00:00-06:00' },
      { 'FLIR:DateTimeOriginal': '2024:05:01 10:00:00.436-06:00' },
    ]) {
      const m = pickCaptureMoment({ 'ExifIFD:DateTimeOriginal': '2024:05:01 10:00:00', ...other });
      expect([iso(m?.ms), m?.offset], JSON.stringify(other)).toEqual(['2024-05-01T16:00:00.000Z', '-06:00']);
    }
  });

  it('an offset written with another wall clock is not borrowed: local time', () => {
    const m = pickCaptureMoment({ 'ExifIFD:DateTimeOriginal': '2024:05:01 10:00:00', 'XMP-exif:DateTimeOriginal': '2024:05:01 11:00:00-06:00' });
    expect(m?.offset).toBeNull();
    expect(iso(m?.ms)).toBe('2024-05-01T04:30:00.000Z'); // 10:00 in Kolkata
  });

  it('a blank EXIF offset (`   :  `, "unknown") falls through to OffsetTime', () => {
    const m = pickCaptureMoment({ 'ExifIFD:DateTimeOriginal': '2024:05:01 10:00:00', 'ExifIFD:OffsetTimeOriginal': '   :  ', 'ExifIFD:OffsetTime': '-03:00' });
    expect(iso(m?.ms)).toBe('2024-05-01T13:00:00.000Z');
  });

  it('CreateDate uses OffsetTimeDigitized; an invalid DateTimeOriginal is passed over', () => {
    const m = pickCaptureMoment({
      'ExifIFD:DateTimeOriginal': '0000:00:00 00:00:00', 'ExifIFD:CreateDate': '2024:05:01 10:00:00', 'ExifIFD:OffsetTimeDigitized': '+09:00',
    });
    expect(iso(m?.ms)).toBe('2024-05-01T01:00:00.000Z');
  });

  it('XMP in UTC (`Z`) and without seconds; nothing written → null', () => {
    expect(iso(pickCaptureMoment({ 'XMP-xmp:CreateDate': '2024:05:01 16:00Z' })?.ms)).toBe('2024-05-01T16:00:00.000Z');
    expect(pickCaptureMoment({ 'IFD0:Model': 'X', 'IPTC:DateCreated': '2024:05:01' })).toBeNull();
  });

  it('parses offsets and dates exactly', () => {
    expect([parseOffset('+05:30'), parseOffset('-0600'), parseOffset('+02'), parseOffset('Z'), parseOffset('   :  '), parseOffset('+25:00')])
      .toEqual([330, -360, 120, 0, null, null]);
    expect(parseDateValue('2024-05-01T10:00:00.5-06:00')).toEqual({ y: 2024, mo: 5, d: 1, h: 10, mi: 0, s: 0, offsetMin: -360 });
    expect(parseDateValue('2024:13:01 10:00:00')).toBeNull();
    expect(iso(parseExifDate('2024:06:01 14:22:33-06:00', '+02:00')?.ms)).toBe('2024-06-01T20:22:33.000Z');
  });
});
