import { TlCodec, TlConstructor, TlKinded } from '../codec';

/** Request codec (boxed, with the function's constructor id) and answer codec (boxed) of one function. */
export interface LiteFunctionCodec<Q extends TlKinded, A> {
  readonly request: TlConstructor<Q>;
  readonly answer: TlCodec<A>;
}

/**
 * The codecs of one family of functions, keyed by function name: `Q` is the family's request
 * union, `A` maps each function name to its answer type, so a request is only ever paired with
 * the answer lite_api.tl gives it.
 */
export type LiteFunctionTable<Q extends TlKinded, A extends { readonly [K in Q['kind']]: unknown }> = {
  readonly [K in Q['kind']]: LiteFunctionCodec<Extract<Q, { kind: K }>, A[K]>;
};
