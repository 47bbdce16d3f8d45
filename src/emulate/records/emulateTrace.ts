import { InvalidRequestError } from '../../errors';
import { bocField, boolField, emulateAndRender, emulationBlock, type EmulateFlags, type EmulateRecord, flagsOf, requestObject, stringField } from '../record';

/** POST /api/emulate/v1/emulateTrace: the trace of an external message (toncenter's EmulateRequest). */

export interface EmulateTraceParams extends EmulateFlags {
  readonly boc: Buffer;
  readonly ignoreChksig: boolean;
}

export const emulateTraceRecord: EmulateRecord<EmulateTraceParams> = {
  path: '/v1/emulateTrace',
  summary: 'Emulate trace by external message.',
  cachePolicy: 'never',
  parse(raw) {
    const body = requestObject(raw);
    const boc = stringField(body, 'boc');
    if (boc === '') throw new InvalidRequestError('boc is required');
    return { ...flagsOf(body), boc: bocField('boc', boc), ignoreChksig: boolField(body, 'ignore_chksig') };
  },
  async run(ctx, p) {
    const session = ctx.session();
    const block = await emulationBlock(session, p.mcBlockSeqno);
    return emulateAndRender(ctx, session, block, p, { boc: p.boc, ignoreChksig: p.ignoreChksig });
  },
};
