export { planOutputNames, nameKey } from './plan';
export { templateProblems, usesCaptureTokens, CAPTURE_TOKENS, NAMING_TOKENS, TOKEN_DEFINITIONS } from './tokens';
export { expectedExtension, extensionForFormat, resultFormatOf, sourceExtension, type ResultFormat } from './extension';
export { fileNameOf, namingSourceOf, stemOf } from './source';
export { MAX_COMPONENT_BYTES, MAX_RESULT_NAME_BYTES, safeFolderName, safeRelDir, utf8Length } from './component';
export type { NamingItem, NamingOptions, NamingOutput, PlannedAction, PlannedItem, PlannedOutput } from './types';
