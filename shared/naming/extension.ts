import { fileNameOf } from './source';

// The extension a result is saved under. Today the service decides the result's format, so before it answers the
// extension is predicted from the source (a PNG usually comes back as PNG, anything else as JPEG); once a result is
// downloaded its real format decides. An explicit output format (a setting) makes the prediction exact.

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

/**
 * The extension a result of `sourcePath` will have. `outputFormat` is an explicit format to save in (`png`,
 * `jpeg`…, or `source` for the source's own format); null means "whatever the service returns", predicted.
 */
export function expectedExtension(sourcePath: string, outputFormat: string | null = null): string {
  const sourceFormat = sourceExtension(sourcePath).slice(1);
  if (outputFormat && outputFormat !== 'source') return extensionForFormat(outputFormat);
  if (outputFormat === 'source' && FORMAT_EXTENSION[sourceFormat]) return extensionForFormat(sourceFormat);
  return sourceFormat === 'png' ? '.png' : '.jpg';
}
