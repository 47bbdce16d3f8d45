/** Config and library functions: config params, validator stats, and library cells (with or without proof). */
import { constructor, int256, int32, nat, optional, vector } from '../codec';
import {
  BlockIdExt,
  ConfigInfo,
  LibraryResult,
  LibraryResultWithProof,
  ValidatorStats,
  blockIdExtCodec,
  configInfoCodec,
  libraryResultCodec,
  libraryResultWithProofCodec,
  validatorStatsCodec,
} from '../objects';
import type { LiteFunctionTable } from './liteFunction';

const blockIdExt = blockIdExtCodec.bare;

export interface GetConfigAll {
  readonly kind: 'liteServer.getConfigAll';
  readonly mode: number;
  readonly id: BlockIdExt;
}
export interface GetConfigParams {
  readonly kind: 'liteServer.getConfigParams';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly paramList: number[];
}
export interface GetValidatorStats {
  readonly kind: 'liteServer.getValidatorStats';
  readonly mode: number;
  readonly id: BlockIdExt;
  readonly limit: number;
  readonly startAfter: Buffer | null;
  readonly modifiedAfter: number | null;
}
export interface GetLibraries {
  readonly kind: 'liteServer.getLibraries';
  readonly libraryList: Buffer[];
}
export interface GetLibrariesWithProof {
  readonly kind: 'liteServer.getLibrariesWithProof';
  readonly id: BlockIdExt;
  readonly mode: number;
  readonly libraryList: Buffer[];
}

export type ConfigQuery = GetConfigAll | GetConfigParams | GetValidatorStats | GetLibraries | GetLibrariesWithProof;

/** The answer type of each function of the family (its boxed result type in lite_api.tl). */
export interface ConfigAnswers {
  'liteServer.getConfigAll': ConfigInfo;
  'liteServer.getConfigParams': ConfigInfo;
  'liteServer.getValidatorStats': ValidatorStats;
  'liteServer.getLibraries': LibraryResult;
  'liteServer.getLibrariesWithProof': LibraryResultWithProof;
}

export const CONFIG_FUNCTIONS: LiteFunctionTable<ConfigQuery, ConfigAnswers> = {
  'liteServer.getConfigAll': {
    request: constructor<GetConfigAll>('liteServer.getConfigAll', { mode: nat, id: blockIdExt }),
    answer: configInfoCodec,
  },
  'liteServer.getConfigParams': {
    request: constructor<GetConfigParams>('liteServer.getConfigParams', {
      mode: nat,
      id: blockIdExt,
      paramList: vector(int32),
    }),
    answer: configInfoCodec,
  },
  'liteServer.getValidatorStats': {
    request: constructor<GetValidatorStats>('liteServer.getValidatorStats', {
      mode: nat,
      id: blockIdExt,
      limit: int32,
      startAfter: optional('mode', 0, int256),
      modifiedAfter: optional('mode', 2, int32),
    }),
    answer: validatorStatsCodec,
  },
  'liteServer.getLibraries': {
    request: constructor<GetLibraries>('liteServer.getLibraries', { libraryList: vector(int256) }),
    answer: libraryResultCodec,
  },
  'liteServer.getLibrariesWithProof': {
    request: constructor<GetLibrariesWithProof>('liteServer.getLibrariesWithProof', {
      id: blockIdExt,
      mode: nat,
      libraryList: vector(int256),
    }),
    answer: libraryResultWithProofCodec,
  },
};
