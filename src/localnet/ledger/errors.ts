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

/** waitForMasterchainSeqno ran out of time. */
export class WaitTimeoutError extends Error {
  constructor(seqno: number) {
    super(`timed out waiting for masterchain block ${seqno}`);
    this.name = 'WaitTimeoutError';
  }
}
