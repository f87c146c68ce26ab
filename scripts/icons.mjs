#!/usr/bin/env node
// Generates every icon from the SVG sources in assets/ with sharp (run after editing an SVG; the outputs are
// committed so packaging needs no image tools):
//   icon.svg → icon.png (1024, Linux/window icon), icon.icns (macOS), icon.ico (Windows)
//   tray.svg → trayTemplate.png + trayTemplate@2x.png (macOS menu bar, template image), tray.png (Windows/Linux)
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const assets = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets');

export async function renderPng(svg, size) {
  return sharp(svg, { density: Math.max(72, Math.ceil((72 * size) / 256)) }).resize(size, size).png({ compressionLevel: 9 }).toBuffer();
}

// ICNS element types holding PNG data, by pixel size (the @2x variants reuse the same pixels).
const ICNS_TYPES = [
  ['icp4', 16], ['icp5', 32], ['icp6', 64], ['ic07', 128], ['ic08', 256], ['ic09', 512], ['ic10', 1024],
  ['ic11', 32], ['ic12', 64], ['ic13', 256], ['ic14', 512],
];

/** An .icns file: 'icns' + total length, then (type, length, PNG) elements. */
export function buildIcns(pngBySize) {
  const parts = [];
  for (const [type, size] of ICNS_TYPES) {
    const png = pngBySize.get(size);
    if (!png) continue;
    const header = Buffer.alloc(8);
    header.write(type, 0, 'ascii');
    header.writeUInt32BE(png.length + 8, 4);
    parts.push(header, png);
  }
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([header, body]);
}

export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

/** An .ico file with PNG-compressed images (supported since Windows Vista): ICONDIR, ICONDIRENTRYs, data. */
export function buildIco(pngBySize) {
  const sizes = ICO_SIZES.filter((s) => pngBySize.has(s));
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(sizes.length, 4);
  const entries = [];
  const images = [];
  let offset = 6 + 16 * sizes.length;
  for (const size of sizes) {
    const png = pngBySize.get(size);
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2);
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    entries.push(entry);
    images.push(png);
  }
  return Buffer.concat([header, ...entries, ...images]);
}

export async function generateIcons(dir = assets) {
  const iconSvg = await readFile(join(dir, 'icon.svg'));
  const traySvg = await readFile(join(dir, 'tray.svg'));
  const sizes = [...new Set([...ICNS_TYPES.map(([, s]) => s), ...ICO_SIZES])];
  const pngs = new Map(await Promise.all(sizes.map(async (s) => [s, await renderPng(iconSvg, s)])));
  const outputs = {
    'icon.png': pngs.get(1024),
    'icon.icns': buildIcns(pngs),
    'icon.ico': buildIco(pngs),
    'trayTemplate.png': await renderPng(traySvg, 16),
    'trayTemplate@2x.png': await renderPng(traySvg, 32),
    'tray.png': await renderPng(traySvg, 32),
  };
  for (const [name, data] of Object.entries(outputs)) await writeFile(join(dir, name), data);
  return Object.keys(outputs);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const written = await generateIcons();
  console.log(`wrote ${written.map((n) => `assets/${n}`).join(', ')}`);
}
