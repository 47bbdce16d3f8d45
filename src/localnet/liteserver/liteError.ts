/**
 * A `liteServer.error` answer of the embedded lite server: the lite protocol's code (651 not
 * ready, -400 fatal...) and text, as its ADNL clients receive them. The embedded chain speaks
 * only the lite protocol; it knows nothing of the bridge's errors or HTTP.
 */
export class LiteProtocolError extends Error {
  constructor(
    readonly liteCode: number,
    readonly liteMessage: string,
  ) {
    super(`${liteMessage} (lite-server code ${liteCode})`);
    this.name = 'LiteProtocolError';
  }
}
