// sharp/libvips messages are written for developers ("VipsJpeg: Premature end of JPEG file"); items show people a
// reason they can act on. Unknown messages keep their first line so nothing is hidden.

export class InputImageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InputImageError';
  }
}

export function describeImageError(error: unknown, maxMegapixels: number): string {
  if (error instanceof InputImageError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'file not found (moved or deleted since it was added)';
  if (code === 'EACCES' || code === 'EPERM') return 'file cannot be read (permission denied)';
  if (code === 'EISDIR') return 'is a folder, not an image';
  const message = error instanceof Error ? error.message : String(error);
  const lower = message.toLowerCase();
  if (lower.includes('pixel limit')) {
    return `image too large: more than ${maxMegapixels} megapixels (refused to protect memory — possibly a decompression bomb)`;
  }
  if (lower.includes('unsupported image format')) return 'not an image, or an image format Batchroom cannot read';
  if (lower.includes('premature end') || lower.includes('truncated') || lower.includes('unexpected end') || lower.includes('read error')) {
    return 'image file is truncated or corrupt';
  }
  if (lower.includes('corrupt') || lower.includes('invalid') || lower.includes('bad ') || lower.includes('not a') || lower.includes('crc')) {
    return `image file is corrupt (${firstLine(message)})`;
  }
  return `cannot read image (${firstLine(message)})`;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}
