/**
 * estimateFee's `query.fees` JSON. The fee arithmetic is src/chain/feeArithmetic.ts, the config
 * parameters' loaders src/tlb/feePrices.ts.
 */

export interface FeesJson {
  '@type': 'fees';
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

export interface QueryFeesJson {
  '@type': 'query.fees';
  source_fees: FeesJson;
  destination_fees: FeesJson[];
}

export interface FeeBreakdown {
  inForwardFee: bigint;
  storageFee: bigint;
  gasFee: bigint;
  forwardFee: bigint;
}

export function toFees(fees: FeeBreakdown): FeesJson {
  return {
    '@type': 'fees',
    in_fwd_fee: Number(fees.inForwardFee),
    storage_fee: Number(fees.storageFee),
    gas_fee: Number(fees.gasFee),
    fwd_fee: Number(fees.forwardFee),
  };
}

/** tonlib's raw.createQuery has no destinations, so destination_fees stays empty. */
export function toQueryFees(source: FeeBreakdown, destinations: FeeBreakdown[] = []): QueryFeesJson {
  return { '@type': 'query.fees', source_fees: toFees(source), destination_fees: destinations.map(toFees) };
}
