/** lite_api.tl codecs, shared by the embedded lite server and the pool (current-schema functions ton-lite-client lacks). */
export { TlReader, TlWriter, TlDecodeError, TlEncodeError } from './buffer';
export type { TlCodec, TlConstructor, TlField, TlFields } from './codec';
export { encodeTl, decodeTl, hexId } from './codec';
export { TL_IDS } from './ids';
export type { TlConstructorName } from './ids';
export { crc32, tlDeclarationId } from './constructorId';
export type { TlDeclaration } from './constructorId';
export * from './objects';
export * from './functions';
export * from './envelope';
export * from './adnlMessages';
export * from './liteClientFunctions';
export * from './signing';
