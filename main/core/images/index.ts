export { classifyInputFile, IMAGE_EXTENSIONS, type InputClassification } from './classify';
export { resolveInputs, type ResolvedInputs, type ResolvedFile } from './resolve-inputs';
export { hashFile } from './hash';
export { encodeForUpload, toDataUrl, OUTPUT_LONG_EDGE, DEFAULT_OUTPUT_SIZE, type EncodedImage, type EncodeOptions } from './encode';
export { InputImageError, describeImageError } from './errors';
export {
  placeFile, finishPlacement, tempPathFor, verifyImage, writeTemp, writeJsonAtomic,
  describeWriteError, isTempName, SaveError, TEMP_PREFIX, TEMP_SUFFIX,
} from './save';
