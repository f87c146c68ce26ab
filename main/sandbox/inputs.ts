import type { IncomingMessage } from 'node:http';
import { SandboxError, validationError } from './errors';
import type { Raster } from './imaging/raster';
import { loadSharp } from './imaging/sharp-loader';
import type { ReusedImages } from './reused-images';
import type { SandboxLimits } from './options';
import type { ResultLookup } from './results';
import { guardedGet, UrlRefused } from './url-guard';
import { canonicalMime, sniffImageType, SUPPORTED_TYPES, type SniffedType } from './sniff';

// Turns an `images` value (data URL or http(s) URL) into a decoded raster, refusing what a careful service would:
// bad base64, mislabelled or unsupported formats, oversize payloads, decompression bombs, corrupt pixel data.

/** Long edge of the working raster: outputs are at most 2K, so larger inputs are reduced on decode. */
const WORKING_LONG_EDGE = 2048;
const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;

export interface FetchedImage {
  bytes: Buffer;
  type: SniffedType;
}

function tooLarge(field: string, what: string, limit: number): SandboxError {
  return new SandboxError(413, 'image_too_large', `${field}: ${what} exceeds the limit of ${limit}`, { field, limit });
}

function checkType(field: string, bytes: Buffer, declared?: string): SniffedType {
  const type = sniffImageType(bytes);
  if (!type) throw new SandboxError(415, 'unsupported_media_type', `${field}: the bytes are not a recognised image format`, { field });
  if (declared !== undefined && canonicalMime(declared) !== type) {
    throw new SandboxError(415, 'unsupported_media_type', `${field}: declared ${declared} but the bytes are ${type}`, {
      field, declaredType: declared, detectedType: type,
    });
  }
  if (!SUPPORTED_TYPES.has(type)) {
    throw new SandboxError(415, 'unsupported_media_type', `${field}: ${type} is not supported; send JPEG, PNG, WebP, GIF, TIFF or AVIF`, {
      field, detectedType: type,
    });
  }
  return type;
}

export function decodeDataUrl(field: string, value: string, limits: SandboxLimits): FetchedImage {
  const match = DATA_URL.exec(value);
  if (!match) throw validationError(field, `${field}: malformed data URL`, { reason: 'invalid_data_url' });
  const [, mime = '', params = '', payload = ''] = match;
  if (!params.split(';').includes('base64')) throw validationError(field, `${field}: data URL must be base64-encoded`, { reason: 'invalid_data_url' });
  if (!mime.toLowerCase().startsWith('image/')) {
    throw new SandboxError(415, 'unsupported_media_type', `${field}: data URL type "${mime || 'none'}" is not an image type`, { field });
  }
  // Estimate before decoding so a huge payload is refused without allocating its bytes.
  if (Math.floor((payload.length * 3) / 4) > limits.maxImageBytes + 2) throw tooLarge(field, 'image size', limits.maxImageBytes);
  // Strict: Buffer.from silently skips junk characters, so the decoded bytes must re-encode to exactly the payload
  // (this also rejects missing padding, whitespace and the URL-safe alphabet). Native, unlike a regex over megabytes.
  const bytes = Buffer.from(payload, 'base64');
  if (payload.length % 4 !== 0 || bytes.toString('base64') !== payload) {
    throw validationError(field, `${field}: data URL payload is not valid base64`, { reason: 'invalid_base64' });
  }
  if (bytes.length === 0) throw new SandboxError(415, 'corrupt_image', `${field}: the image is empty`, { field });
  if (bytes.length > limits.maxImageBytes) throw tooLarge(field, 'image size', limits.maxImageBytes);
  return { bytes, type: checkType(field, bytes, mime) };
}

/**
 * Downloads an http(s) image with a time limit and a byte limit enforced while streaming. Only public addresses are
 * fetched (url-guard.ts) unless the sandbox was started with `allowPrivateUrls` (tests serving images on loopback).
 */
export async function downloadImage(field: string, url: string, limits: SandboxLimits): Promise<FetchedImage> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw validationError(field, `${field}: not a valid URL or data URL`, { reason: 'invalid_url' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw validationError(field, `${field}: URL scheme "${parsed.protocol.replace(':', '')}" is not allowed; use http(s) or a data URL`, {
      reason: 'unsupported_url_scheme',
    });
  }
  const signal = AbortSignal.timeout(limits.downloadTimeoutMs);
  const failed = (reason: string): SandboxError =>
    validationError(field, `${field}: could not download the image (${reason})`, { reason: 'image_download_failed' });
  let response: IncomingMessage;
  try {
    response = await guardedGet(parsed, { allowPrivate: limits.allowPrivateUrls, signal, headers: { accept: 'image/*' } });
  } catch (error) {
    if (error instanceof UrlRefused) {
      throw validationError(field, `${field}: ${error.message}`, { reason: error.reason === 'private_url' || error.reason === 'unsupported_url_scheme' ? error.reason : 'image_download_failed' });
    }
    throw failed(signal.aborted ? `timed out after ${limits.downloadTimeoutMs} ms` : errorText(error));
  }
  const status = response.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    response.destroy();
    throw failed(`HTTP ${status}`);
  }
  const declaredLength = Number(response.headers['content-length'] ?? NaN);
  if (declaredLength > limits.maxImageBytes) {
    response.destroy();
    throw tooLarge(field, 'image size', limits.maxImageBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of response) {
      total += (chunk as Buffer).byteLength;
      if (total > limits.maxImageBytes) throw tooLarge(field, 'image size', limits.maxImageBytes);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    response.destroy();
    if (error instanceof SandboxError) throw error;
    throw failed(signal.aborted ? `timed out after ${limits.downloadTimeoutMs} ms` : errorText(error));
  }
  const bytes = Buffer.concat(chunks);
  if (bytes.length === 0) throw new SandboxError(415, 'corrupt_image', `${field}: the downloaded image is empty`, { field });
  // The Content-Type header is not trusted: servers often send octet-stream. Only the bytes decide.
  return { bytes, type: checkType(field, bytes) };
}

function errorText(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const cause = (error as { cause?: { code?: string } })?.cause?.code;
  return cause ?? (typeof code === 'string' && code !== 'ABORT_ERR' ? code : error instanceof Error ? error.message : String(error));
}

/**
 * Decodes to the working raster on sharp's thread pool: header first (pixel limit → 413 before any decode), then a
 * full decode that fails on corrupt or truncated data (415). EXIF orientation is applied, metadata dropped.
 */
export async function decodeImage(field: string, image: FetchedImage, limits: SandboxLimits, reuse?: ReusedImages): Promise<Raster> {
  const sharp = await loadSharp();
  let width: number;
  let height: number;
  try {
    const meta = await sharp(image.bytes, { limitInputPixels: false }).metadata();
    width = meta.width ?? 0;
    height = meta.height ?? 0;
  } catch (error) {
    throw new SandboxError(415, 'corrupt_image', `${field}: the image header cannot be read (${errorText(error)})`, { field });
  }
  if (width * height > limits.maxImagePixels) {
    throw new SandboxError(413, 'image_too_large', `${field}: ${width}×${height} pixels exceeds the limit of ${limits.maxImagePixels} pixels`, {
      field, limit: limits.maxImagePixels, width, height,
    });
  }
  // The bench's cost mode (reused-images.ts): the header was read and checked; the pixels are a same-size photo's.
  if (reuse) return reuse.raster(width, height, () => decodePixels(field, image, limits));
  return decodePixels(field, image, limits);
}

async function decodePixels(field: string, image: FetchedImage, limits: SandboxLimits): Promise<Raster> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(image.bytes, { limitInputPixels: limits.maxImagePixels, failOn: 'error', animated: false })
      .rotate()
      .resize({ width: WORKING_LONG_EDGE, height: WORKING_LONG_EDGE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    throw new SandboxError(415, 'corrupt_image', `${field}: the image data is corrupt or truncated (${errorText(error)})`, { field });
  }
}

/** The sandbox's own results, read by URL without the network (results.ts lookupUrl). */
export interface OwnResults {
  lookupUrl(url: string): ResultLookup | null;
}

export async function resolveImage(field: string, value: string, limits: SandboxLimits, own?: OwnResults, reuse?: ReusedImages): Promise<Raster> {
  const fetched = value.startsWith('data:') ? decodeDataUrl(field, value, limits) : ownResult(field, value, own) ?? await downloadImage(field, value, limits);
  return decodeImage(field, fetched, limits, reuse);
}

/** One of this sandbox's result URLs, answered as a download of it would be (410 once expired, 404 unknown). */
function ownResult(field: string, url: string, own: OwnResults | undefined): FetchedImage | null {
  const found = own?.lookupUrl(url);
  if (!found) return null;
  if (found.state !== 'ok') {
    throw validationError(field, `${field}: could not download the image (HTTP ${found.state === 'expired' ? 410 : 404})`, { reason: 'image_download_failed' });
  }
  if (found.file.data.length === 0) throw new SandboxError(415, 'corrupt_image', `${field}: the downloaded image is empty`, { field });
  return { bytes: found.file.data, type: checkType(field, found.file.data) };
}
