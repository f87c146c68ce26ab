import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { ExifToolCommand } from '../../../main/core/images/capture';

// Test photos made on the spot: sharp for pixels, ExifTool (the same wrapper the app uses) for a camera's metadata.

/** What a camera and a photographer's catalogue put in a photo, as ExifTool assignments. */
export const CAMERA_TAGS: Record<string, string> = {
  'IFD0:Make': 'Canon', 'IFD0:Model': 'Canon EOS R5', 'ExifIFD:LensModel': 'RF24-70mm F2.8 L IS USM',
  'ExifIFD:DateTimeOriginal': '2024:06:01 14:22:33', 'ExifIFD:OffsetTimeOriginal': '+02:00', 'ExifIFD:SubSecTimeOriginal': '42',
  'IFD0:Copyright': '(c) Ann Example', 'IFD0:Artist': 'Ann Example', 'ExifIFD:ISO': '400', 'ExifIFD:FNumber': '2.8',
  'XMP-dc:Subject': 'beach', 'IPTC:Keywords': 'beach', 'XMP-xmp:Rating': '4', 'XMP-xmp:Label': 'Red',
  'GPS:GPSLatitude': '48.8584', 'GPS:GPSLatitudeRef': 'N', 'GPS:GPSLongitude': '2.2945', 'GPS:GPSLongitudeRef': 'E', 'GPS:GPSAltitude': '35',
  'XMP-photoshop:City': 'Paris', 'XMP-photoshop:Country': 'France', 'XMP-iptcCore:Location': 'Champ de Mars',
  'IPTC:City': 'Paris', 'IPTC:Country-PrimaryLocationName': 'France', 'IPTC:Sub-location': 'Champ de Mars',
  'IFD0:Orientation#': '6',
};

/** Tags a kept result must carry exactly as the original (ExifTool's names, read with -G1). */
export const KEPT_TAGS = [
  'IFD0:Make', 'IFD0:Model', 'ExifIFD:LensModel', 'ExifIFD:DateTimeOriginal', 'ExifIFD:OffsetTimeOriginal', 'ExifIFD:SubSecTimeOriginal',
  'IFD0:Copyright', 'IFD0:Artist', 'ExifIFD:ISO', 'ExifIFD:FNumber', 'XMP-dc:Subject', 'IPTC:Keywords', 'XMP-xmp:Rating', 'XMP-xmp:Label',
];
export const LOCATION_READ_TAGS = [
  'GPS:GPSLatitude', 'GPS:GPSLongitude', 'GPS:GPSAltitude', 'XMP-photoshop:City', 'XMP-photoshop:Country', 'XMP-iptcCore:Location',
  'IPTC:City', 'IPTC:Country-PrimaryLocationName', 'IPTC:Sub-location',
];

export async function writeCameraJpeg(run: ExifToolCommand, path: string, { width = 600, height = 400, colour = '#c33', tags = CAMERA_TAGS } = {}): Promise<void> {
  await writeFile(path, await sharp({ create: { width, height, channels: 3, background: colour } }).jpeg().toBuffer());
  await run(['-overwrite_original', ...Object.entries(tags).map(([k, v]) => `-${k}=${v}`), path]);
}

/** Every tag of a file as `Group1:Name` → value, numbers as numbers (-n), so comparisons are exact. */
export async function readTags(run: ExifToolCommand, path: string): Promise<Record<string, unknown>> {
  const stdout = await run(['-j', '-G1', '-n', '-a', '-struct', path]);
  return (JSON.parse(stdout) as Record<string, unknown>[])[0]!;
}

/** A result as a service returns it: new pixels, no metadata (the pixel step may have added ICC and density). */
export async function writeServiceResult(path: string, { width = 300, height = 450, density }: { width?: number; height?: number; density?: number } = {}): Promise<void> {
  let image = sharp({ create: { width, height, channels: 3, background: '#3c3' } });
  if (density) image = image.withIccProfile('srgb').withMetadata({ density });
  await writeFile(path, await image.jpeg().toBuffer());
}
