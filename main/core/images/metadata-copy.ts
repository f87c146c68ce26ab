// The ExifTool arguments that decide what a result keeps of its original (result-metadata.ts runs them, sidecar.ts
// reuses the exclusions). Kept apart so that the rules — and why each exists — read in one place.

/** Tags of the source that describe its own pixels, never copied onto a result. */
const OWN_PIXELS = ['ICC_Profile:all', 'IFD1:all', 'ThumbnailImage', 'PreviewImage', 'JpgFromRaw', 'OtherImage', 'Orientation',
  'ExifImageWidth', 'ExifImageHeight', 'ImageWidth', 'ImageHeight'];

/**
 * Develop settings of a RAW converter, never copied onto a result (nor into its sidecar): the result is already
 * developed and edited, and Lightroom / Camera Raw apply `crs` settings found in a JPEG or TIFF (and in an XMP
 * sidecar) on top of its pixels — exposure, tone curve, crop, a second time. XMP-crs is Camera Raw's settings (≈ 130
 * tags on a DNG Lightroom touched), XMP-crss its saved snapshots, XMP-crd its defaults; NikonCapture is Nikon Capture
 * NX's edit recipe inside a NEF's MakerNotes.
 */
export const DEVELOP_SETTINGS_XMP = ['XMP-crs:all', 'XMP-crss:all', 'XMP-crd:all'];
const DEVELOP_SETTINGS = [...DEVELOP_SETTINGS_XMP, 'NikonCapture:all'];

/** Everything a copy leaves out, as ExifTool exclusions (`--TAG`). */
export const NOT_COPIED = [...OWN_PIXELS, ...DEVELOP_SETTINGS].map((tag) => `--${tag}`);

/**
 * IPTC (IIM) fields as XMP, with ExifTool's own iptc2xmp mapping (the IPTC Core / Metadata Working Group one that
 * Lightroom and Photoshop write: dc, photoshop and Iptc4xmpCore namespaces). PNG and WebP cannot hold IIM at all, so
 * without this Keywords, By-line, CopyrightNotice, City and Country were silently lost there; JPEG and TIFF get the
 * XMP too, so every format (and its XMP sidecar) says the same. These come before `-all:all` in the copy: ExifTool
 * lets a later copy of the same tag win, so XMP the original already has (possibly newer than its IIM) is kept as is.
 */
export const IPTC_TO_XMP = [
  '-XMP-dc:Creator<IPTC:By-line', '-XMP-dc:Description<IPTC:Caption-Abstract', '-XMP-dc:Rights<IPTC:CopyrightNotice',
  '-XMP-dc:Subject<IPTC:Keywords', '-XMP-dc:Title<IPTC:ObjectName', '-XMP-photoshop:AuthorsPosition<IPTC:By-lineTitle',
  '-XMP-photoshop:CaptionWriter<IPTC:Writer-Editor', '-XMP-photoshop:Category<IPTC:Category', '-XMP-photoshop:City<IPTC:City',
  '-XMP-photoshop:Country<IPTC:Country-PrimaryLocationName', '-XMP-photoshop:Credit<IPTC:Credit',
  '-XMP-photoshop:DateCreated<IPTC:DateCreated', '-XMP-photoshop:DateCreated<Composite:DateTimeCreated',
  '-XMP-photoshop:Headline<IPTC:Headline', '-XMP-photoshop:Instructions<IPTC:SpecialInstructions', '-XMP-photoshop:Source<IPTC:Source',
  '-XMP-photoshop:State<IPTC:Province-State', '-XMP-photoshop:SupplementalCategories<IPTC:SupplementalCategories',
  '-XMP-photoshop:TransmissionReference<IPTC:OriginalTransmissionReference', '-XMP-photoshop:Urgency<IPTC:Urgency',
  '-XMP-iptcCore:CountryCode<IPTC:Country-PrimaryLocationCode', '-XMP-iptcCore:Location<IPTC:Sub-location',
];

/**
 * keep / strip-gps: the original's metadata onto the result, in one -tagsFromFile.
 * -n: values copied as stored, not printed and parsed back (FocalLength 4.25 came back 4.2, f/1.68 as 1.7). Not a
 * `-all:all#` copy: with -E it writes IIM lists HTML-escaped and split at the `-sep`.
 * `-MakerNotes` by name: `-all:all` copies a maker-note block only from where EXIF keeps it (JPEG, CR2, NEF…); a CR3
 * keeps it in its own box and a DNG in DNGPrivateData, and both lost every MakerNote (CR3 192 → 0).
 */
export function copyArgs(source: string): string[] {
  return ['-n', '-tagsFromFile', source, ...IPTC_TO_XMP, '-all:all', '-MakerNotes', ...NOT_COPIED];
}

/**
 * strip: everything removed but the result's ICC profile. Not `-all= --ICC_Profile:all`: exiftool-vendored puts
 * `-FileName<FileName` (a copy) ahead of our arguments, which turns the `--` into an exclusion from that copy rather
 * than from the deletion, and the profile went too. Copying the profile back from the file itself (`@`, read before
 * the write) does not depend on what comes first.
 */
export const STRIP_ALL = ['-all=', '-tagsFromFile', '@', '-ICC_Profile'];

/**
 * strip-gps: ExifTool's `Location` group (coordinates, city, country…) misses the GPS date and time (family 2 `Time`)
 * and other GPS-IFD tags such as GPSImgDirection, so the whole GPS IFD and every XMP-exif GPS tag go too.
 */
export const NO_LOCATION = ['-Location:all=', '-GPS:all=', '-XMP-exif:GPS*='];

/**
 * IIM text is written as UTF-8 with its 1:90 CodedCharacterSet marker. Without the marker ExifTool writes IIM in its
 * default cp1252 and every character outside it becomes `?` (`完成` → `??`); a source read with its own marker
 * (or as Latin without one) converts correctly to UTF-8. Only JPEG/TIFF hold IIM; elsewhere the assignment is a no-op.
 */
export const IPTC_UTF8 = ['-IPTC:CodedCharacterSet=&#27;%G']; // ESC % G: UTF-8, as stored (the write is -n and -E)
