import type { ColourPolicy, MetadataPolicy, OutputFormat, RawPairs, SidecarKind } from '../../shared/engine/model';
import { catalogLabels } from '../i18n/labels';

// Menu labels from the `lib` catalog, in the page's language (format names are the same in every language).
const labels = <K extends string>(keys: Parameters<typeof catalogLabels<'lib', K>>[1]) => catalogLabels('lib', keys);

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
