// The keychain side of Batchroom: where the API key lives (the OS keychain, or BATCHROOM_API_KEY) and how a host
// decides between the live service and the built-in sandbox.
export { API_PREFIX, InvalidServiceUrlError, normalizeServiceUrl, tryNormalizeServiceUrl } from './service-url';
export { KeychainUnavailableError, KeyOriginError, KeyTransportError, MissingApiKeyError } from './errors';
export { createFileKeyOrigins, createMemoryKeyOrigins, keyFingerprint, type KeyOrigins } from './key-origins';
export { isLoopbackHost, keyTransportProblem } from './key-transport';
export {
  KEYCHAIN_SERVICE,
  createInMemoryKeytar,
  createInMemorySecretStore,
  createKeychainSecretStore,
  type KeychainSecretStoreOptions,
  type KeytarLike,
  type SecretStore,
  type StoredKeyInfo,
} from './secret-store';
export {
  saveValidatedKey,
  type KeyRejectReason,
  type KeyValidation,
  type KeyValidator,
  type SaveKeyResult,
} from './validate-key';
export {
  API_KEY_ENV,
  getKeyStatus,
  resolveCredentials,
  type CredentialInputs,
  type Credentials,
  type LiveCredentials,
  type SandboxCredentials,
} from './credentials';
