import { Writable } from 'node:stream';

/** A stream for a pino logger that appends each JSON line it is given to `lines` (tests read them back). */
export function logLineSink(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((line) => line.length > 0),
      );
      done();
    },
  });
}
