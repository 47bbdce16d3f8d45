/** Errors of the connection to the database (as opposed to SQL errors of ours). */
export function isConnectionError(err: unknown): boolean {
  // Not `instanceof Error`: node's own errors (net, from pg's socket) come from another realm under a
  // vm sandbox (jest), and there they were taken for a failure of ours.
  if (typeof err !== 'object' || err === null || typeof (err as { message?: unknown }).message !== 'string') return false;
  const code = (err as { code?: string }).code;
  if (code && (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ENOENT' || code === 'EPIPE' || code === 'ETIMEDOUT')) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|lease lost/i.test((err as { message: string }).message);
}
