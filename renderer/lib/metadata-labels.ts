import type { ColourPolicy, MetadataPolicy, OutputFormat, RawPairs, SidecarKind } from '../../shared/engine/model';
import type { KeyOf } from '../../shared/i18n';
import { tr } from '../i18n/active';

/**
 * A menu's labels, read from the `lib` catalog each time one is shown (a getter per value), so the same constant
 * follows the page's language and every caller keeps `LABELS[value]`. Format names are the same in every language.
 */
function labels<K extends string>(keys: Record<K, KeyOf<'lib'> | { same: string }>): Readonly<Record<K, string>> {
  const out = {} as Record<K, string>;
  for (const value of Object.keys(keys) as K[]) {
    const key = keys[value];
    Object.defineProperty(out, value, { enumerable: true, get: () => (typeof key === 'string' ? tr('lib', key) : key.same) });
  }
  return out;
}

/** How each metadata policy reads in a menu (docs/photo-pipeline.md says what each keeps). */
export const METADATA_LABELS = labels<MetadataPolicy>({ keep: 'metadata.keep', 'strip-gps': 'metadata.stripGps', strip: 'metadata.strip' });

/** How each sidecar kind reads in a menu. */
export const SIDECAR_LABELS = labels<SidecarKind>({ none: 'sidecar.none', json: 'sidecar.json', xmp: 'sidecar.xmp' });

/** How each output format reads in a menu. */
export const FORMAT_LABELS = labels<OutputFormat>({
  source: 'format.source', jpeg: { same: 'JPEG' }, png: { same: 'PNG' }, tiff: 'format.tiff', webp: { same: 'WebP' },
});

/** How each colour policy reads in a menu. */
export const COLOUR_LABELS = labels<ColourPolicy>({ srgb: 'colour.srgb', source: 'colour.source' });

/** How each RAW+JPEG pairing reads in a menu (a RAW and a JPEG of the same name are one photo). */
export const RAW_PAIR_LABELS = labels<RawPairs>({ jpeg: 'rawPairs.jpeg', raw: 'rawPairs.raw', both: 'rawPairs.both' });
