import { fileNameOf } from './source';

// The extension a result is saved under. Whatever format the service returns, the saver converts the result into
// the output format (`source` by default: the original's own format where it is a common one), so the name the
// estimate shows is the name written.

const FORMAT_EXTENSION: Record<string, string> = {
  jpeg: '.jpg', jpg: '.jpg', png: '.png', webp: '.webp', gif: '.gif', tiff: '.tif', tif: '.tif', avif: '.avif', heif: '.heic', heic: '.heic',
};

/** `jpeg` → `.jpg` (sharp's format names and common spellings); unknown formats keep their bytes as `.bin`. */
export function extensionForFormat(format: string | null | undefined): string {
  return (format && FORMAT_EXTENSION[format.toLowerCase()]) ?? '.bin';
}

/** Lower-cased extension of a source file name (`.JPEG` → `.jpeg`), or '' when it has none. */
export function sourceExtension(sourcePath: string): string {
  const name = fileNameOf(sourcePath);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** The format `source` keeps: these originals are saved as themselves, everything else (HEIC, AVIF, GIF, RAW) as JPEG. */
const KEPT_SOURCE_FORMATS: Record<string, ResultFormat> = {
  jpg: 'jpeg', jpeg: 'jpeg', jpe: 'jpeg', jfif: 'jpeg', png: 'png', tif: 'tiff', tiff: 'tiff', webp: 'webp',
};

export type ResultFormat = 'jpeg' | 'png' | 'tiff' | 'webp';

/** The format a result of `sourcePath` is saved in under the output format setting (`source` or an explicit one). */
export function resultFormatOf(sourcePath: string, outputFormat: string = 'source'): ResultFormat {
  if (outputFormat === 'jpeg' || outputFormat === 'png' || outputFormat === 'tiff' || outputFormat === 'webp') return outputFormat;
  return KEPT_SOURCE_FORMATS[sourceExtension(sourcePath).slice(1)] ?? 'jpeg';
}

/** The extension a result of `sourcePath` will have: results are converted, so this is exact, not a guess. */
export function expectedExtension(sourcePath: string, outputFormat: string = 'source'): string {
  return extensionForFormat(resultFormatOf(sourcePath, outputFormat));
}
