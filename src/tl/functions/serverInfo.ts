/** Functions a lite server answers about itself: its masterchain head, clock and version. */
import { constructor, nat } from '../codec';
import {
  CurrentTime,
  MasterchainInfo,
  MasterchainInfoExt,
  Version,
  currentTimeCodec,
  masterchainInfoCodec,
  masterchainInfoExtCodec,
  versionCodec,
} from '../objects';
import type { LiteFunctionTable } from './liteFunction';

export interface GetMasterchainInfo {
  readonly kind: 'liteServer.getMasterchainInfo';
}
export interface GetMasterchainInfoExt {
  readonly kind: 'liteServer.getMasterchainInfoExt';
  readonly mode: number;
}
export interface GetTime {
  readonly kind: 'liteServer.getTime';
}
export interface GetVersion {
  readonly kind: 'liteServer.getVersion';
}

export type ServerInfoQuery = GetMasterchainInfo | GetMasterchainInfoExt | GetTime | GetVersion;

/** The answer type of each function of the family (its boxed result type in lite_api.tl). */
export interface ServerInfoAnswers {
  'liteServer.getMasterchainInfo': MasterchainInfo;
  'liteServer.getMasterchainInfoExt': MasterchainInfoExt;
  'liteServer.getTime': CurrentTime;
  'liteServer.getVersion': Version;
}

export const SERVER_INFO_FUNCTIONS: LiteFunctionTable<ServerInfoQuery, ServerInfoAnswers> = {
  'liteServer.getMasterchainInfo': {
    request: constructor<GetMasterchainInfo>('liteServer.getMasterchainInfo', {}),
    answer: masterchainInfoCodec,
  },
  'liteServer.getMasterchainInfoExt': {
    request: constructor<GetMasterchainInfoExt>('liteServer.getMasterchainInfoExt', { mode: nat }),
    answer: masterchainInfoExtCodec,
  },
  'liteServer.getTime': { request: constructor<GetTime>('liteServer.getTime', {}), answer: currentTimeCodec },
  'liteServer.getVersion': { request: constructor<GetVersion>('liteServer.getVersion', {}), answer: versionCodec },
};
