export * from './common';
export * from './blockInfo';
export * from './valueFlow';
export * from './shardDescr';
export * from './block';
export * from './shardState';
export * from './validators';
export * from './msgDescr';
