/** The destination contract did not accept an inbound external message; nothing changed. */
export class ExternalMessageRejectedError extends Error {
  constructor(
    readonly reason: string,
    readonly exitCode: number | null,
  ) {
    super(`External message was not accepted: ${reason}${exitCode === null ? '' : ` (exit code ${exitCode})`}`);
    this.name = 'ExternalMessageRejectedError';
  }
}

/** A message that is not an inbound external message, or not a parseable one. */
export class InvalidExternalMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidExternalMessageError';
  }
}

/** The chain stopped while something waited for a block of it. */
export class ChainStoppedError extends Error {
  constructor() {
    super('the local chain stopped');
    this.name = 'ChainStoppedError';
  }
}

/** waitForMasterchainSeqno ran out of time. */
export class WaitTimeoutError extends Error {
  constructor(seqno: number) {
    super(`timed out waiting for masterchain block ${seqno}`);
    this.name = 'WaitTimeoutError';
  }
}

/**
 * A developer control the chain refuses (the local chain is fenced from the bridge's errors):
 * a value it cannot take (`invalid`: an amount above the faucet's limit, a clock moved back) or
 * something it does not hold (`notFound`: a snapshot id). The `/localnet/*` routes map it to
 * their answers; the text says what, to the developer.
 */
export class ControlRefusedError extends Error {
  constructor(
    readonly reason: 'invalid' | 'notFound',
    message: string,
  ) {
    super(message);
    this.name = 'ControlRefusedError';
  }
}

/** Refuses a control's value: `detail` says why. */
export function refuseControl(detail: string): never {
  throw new ControlRefusedError('invalid', detail);
}
