import type { ResultFormat } from '../naming';
import { describeMetadataLimits } from '../metadata-limits';
import type { ColourPolicy, MetadataPolicy } from './model';

// One sentence for what the results will be, said the same way by the app's summary and the CLI's estimate: their
// size (the service's output, often far smaller than a camera's file), their format(s), colour space and metadata.

export interface ResultFilePlan {
  /** Long edge of the service's output for the requested size (1K: 1024, 2K: 2048). */
  longEdge: number;
  /** The largest original's long edge, when the originals could be measured. */
  largestOriginalEdge: number | null;
  formats: ResultFormat[];
  colour: ColourPolicy;
  metadata: MetadataPolicy;
}

const FORMAT_NAMES: Record<ResultFormat, string> = { jpeg: 'JPEG', png: 'PNG', tiff: 'TIFF', webp: 'WebP' };
const COLOUR_WORDS: Record<ColourPolicy, string> = { srgb: 'sRGB', source: 'the original\'s colour space' };
const METADATA_WORDS: Record<MetadataPolicy, string> = { keep: 'metadata kept', 'strip-gps': 'metadata kept without location', strip: 'metadata removed' };

const px = (n: number) => `${n.toLocaleString('en-US')} px`;

export function describeResultFile(plan: ResultFilePlan): string {
  const size = plan.largestOriginalEdge && plan.largestOriginalEdge > plan.longEdge
    ? `${px(plan.longEdge)} on the long edge (originals up to ${px(plan.largestOriginalEdge)})`
    : `${px(plan.longEdge)} on the long edge`;
  const formats = plan.formats.length > 0 ? plan.formats.map((f) => FORMAT_NAMES[f]).join(' and ') : 'JPEG';
  // "metadata kept" must not promise what a chosen format cannot hold (WebP has no IPTC-IIM): say it here, before paying.
  const limits = describeMetadataLimits(plan.formats.length > 0 ? plan.formats : ['jpeg'], plan.metadata);
  return `Results ${size} · ${formats}, ${COLOUR_WORDS[plan.colour]}, ${METADATA_WORDS[plan.metadata]}${limits ? ` (${limits})` : ''}`;
}
