import type { KeytarLike } from '../secrets';

/** The OS keychain for ledger passwords, loaded lazily (a missing native module just means "not in the keychain"). */
export function keychainLoader(): () => Promise<KeytarLike> {
  let loaded: Promise<KeytarLike> | undefined;
  return () => (loaded ??= import('keytar').then((mod) => ((mod as unknown as { default?: KeytarLike }).default ?? (mod as unknown as KeytarLike))));
}
