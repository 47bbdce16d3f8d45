import { NotImplementedError, ValidationError } from '../errors';
import { ParamError, ParamShape, ParamValues, parseParams } from '../params';
import type { Handler, HandlerDefinition } from './types';

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
    implemented: run !== undefined,
    parse(raw, source) {
      let values: ParamValues<S>;
      try {
        values = parseParams(definition.params, raw);
      } catch (err) {
        if (err instanceof ParamError) throw new ValidationError(`failed to parse ${source} request: ${err.message}`);
        throw err;
      }
      definition.validate?.(values);
      return values;
    },
    async run(ctx, parsed) {
      if (!run) throw new NotImplementedError(definition.name);
      return run(ctx, parsed as ParamValues<S>);
    },
  };
}

export { invalid } from '../errors';
