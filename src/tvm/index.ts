export * from './messages';
export { type BuiltMessage, closeTvm, configureTvm, DEFAULT_GET_METHOD_GAS, DEFAULT_TVM_IDLE_TIMEOUT_MS, tvmPool, TvmPool, type TvmPoolOptions } from './pool';
export { parseStackCell, serializeStackCell, type StackParseOptions } from './stackCell';
export { createEmulator } from './emulator';
export * from './externalMessages';
export * from './libraryRefs';
export * from './messageTasks';
export { checkGlobalVersion, EMULATOR_BUILD, EMULATOR_GLOBAL_VERSION, type NewerNetworkPolicy, TvmVersionError } from './version';
export * from './walletMessages';
