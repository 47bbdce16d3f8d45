import { NotImplementedError, ValidationError } from '../errors';
import { finishParams, ParamError, type ParamInputs, type ParamShape, parseParams } from '../params';
import type { CallSession, Handler, HandlerDefinition } from './types';

/** Turns a handler file's definition into a table entry. */
export function defineHandler<S extends ParamShape>(definition: HandlerDefinition<S>): Handler {
  const { run } = definition;
  return {
    name: definition.name,
    aliases: definition.aliases ?? [],
    category: definition.category,
    verbs: definition.verbs,
    summary: definition.summary,
    params: definition.params,
    cache: definition.cache,
    result: definition.result,
    implemented: run !== undefined,
    parse(raw, source) {
      let inputs: ParamInputs<S>;
      try {
        inputs = parseParams(definition.params, raw);
      } catch (err) {
        if (err instanceof ParamError) throw new ValidationError(`failed to parse ${source} request: ${err.message}`);
        throw err;
      }
      definition.validate?.(inputs);
      const values = finishParams(definition.params, inputs);
      return {
        params: values,
        session: definition.session(values),
        async run(ctx) {
          if (!run) throw new NotImplementedError(definition.name);
          return run(ctx, values);
        },
      };
    },
  };
}

/** A method that reads at the head on any server (or not at all): no options from its parameters. */
export const atHead = (): CallSession => ({});

/** A method reading the masterchain block its `seqno` parameter names (the head when absent). */
export const atSeqno = (params: { readonly seqno?: number | undefined }): CallSession => ({ seqno: params.seqno });

export { invalid } from '../errors';
