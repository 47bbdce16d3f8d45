export { AdnlServer } from './server';
export type { AdnlServerOptions, AdnlServerAddress } from './server';
export type { ConnectionInfo, AdnlQueryHandler } from './connection';
export { silentLogger } from './logger';
export type { LocalnetLogger } from './logger';
