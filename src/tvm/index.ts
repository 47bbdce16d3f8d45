export * from './messages';
export { type BuiltMessage, closeTvm, configureTvm, DEFAULT_GET_METHOD_GAS, tvmPool, TvmPool, type TvmPoolOptions } from './pool';
export { parseStackCell, serializeStackCell, type StackParseOptions } from './stackCell';
export { createEmulator } from './emulator';
export * from './externalMessages';
export * from './libraryRefs';
export * from './messageTasks';
