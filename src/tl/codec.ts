/**
 * Combinators that build typed TL codecs from field lists. Unlike ton-tl's generator, optional
 * fields are written whenever their flag bit is set (a 0 or empty value is still written), and a
 * missing value for a set bit is an encoding error rather than a silently malformed message.
 */
import { TlDecodeError, TlEncodeError, TlReader, TlWriter } from './buffer';
import { TL_IDS, TlConstructorName } from './ids';

export interface TlCodec<T> {
  read(reader: TlReader): T;
  write(writer: TlWriter, value: T): void;
}

/** A field of a constructor; `fields` gives access to earlier fields (flags live there). */
export interface TlField<V> {
  read(reader: TlReader, fields: Readonly<Record<string, unknown>>): V;
  write(writer: TlWriter, value: V, fields: Readonly<Record<string, unknown>>): void;
}

export const int32: TlCodec<number> = { read: (r) => r.int32(), write: (w, v) => w.int32(v) };
/** TL `#` (flags / unsigned counts). */
export const nat: TlCodec<number> = { read: (r) => r.uint32(), write: (w, v) => w.uint32(v) };
export const int64: TlCodec<string> = { read: (r) => r.int64(), write: (w, v) => w.int64(v) };
export const int256: TlCodec<Buffer> = { read: (r) => r.int256(), write: (w, v) => w.int256(v) };
export const bytes: TlCodec<Buffer> = { read: (r) => r.bytes(), write: (w, v) => w.bytes(v) };
export const string: TlCodec<string> = { read: (r) => r.string(), write: (w, v) => w.string(v) };
export const bool: TlCodec<boolean> = { read: (r) => r.bool(), write: (w, v) => w.bool(v) };

export function vector<T>(element: TlCodec<T>): TlCodec<T[]> {
  return {
    read(reader) {
      const count = reader.vectorLength();
      const items: T[] = [];
      for (let i = 0; i < count; i++) items.push(element.read(reader));
      return items;
    },
    write(writer, values) {
      if (!Array.isArray(values)) throw new TlEncodeError('vector value must be an array');
      writer.uint32(values.length);
      for (const value of values) element.write(writer, value);
    },
  };
}

function flagSet(fields: Readonly<Record<string, unknown>>, flagField: string, bit: number): boolean {
  const flags = fields[flagField];
  if (typeof flags !== 'number') throw new TlEncodeError(`flags field ${flagField} must be a number`);
  return (flags & (1 << bit)) !== 0;
}

/** `name:flags.bit?Type` — present exactly when the bit is set; `null` otherwise. */
export function optional<V>(flagField: string, bit: number, codec: TlCodec<V>): TlField<V | null> {
  return {
    read: (reader, fields) => (flagSet(fields, flagField, bit) ? codec.read(reader) : null),
    write(writer, value, fields) {
      if (!flagSet(fields, flagField, bit)) return;
      if (value === null || value === undefined) {
        throw new TlEncodeError(`${flagField} bit ${bit} is set but its field has no value`);
      }
      codec.write(writer, value);
    },
  };
}

/** `name:flags.bit?true` — takes no bytes; decodes to `true` when the bit is set, else `null`. */
export function trueFlag(flagField: string, bit: number): TlField<boolean | null> {
  return {
    read: (_reader, fields) => (flagSet(fields, flagField, bit) ? true : null),
    write: () => undefined,
  };
}

export interface TlKinded {
  readonly kind: string;
}

/** Field codecs for every property of T except `kind`, in serialization order. */
export type TlFields<T extends TlKinded> = { [K in Exclude<keyof T, 'kind'>]-?: TlField<T[K]> };

/** One TL constructor: `bare` omits the id (vector elements, typed fields), `boxed` writes it. */
export interface TlConstructor<T extends TlKinded> extends TlCodec<T> {
  readonly kind: T['kind'];
  readonly id: number;
  readonly bare: TlCodec<T>;
}

export function constructor<T extends TlKinded>(kind: T['kind'] & TlConstructorName, fields: TlFields<T>): TlConstructor<T> {
  const id = TL_IDS[kind];
  const entries = Object.entries(fields) as [string, TlField<unknown>][];
  const bare: TlCodec<T> = {
    read(reader) {
      const value: Record<string, unknown> = { kind };
      for (const [name, field] of entries) value[name] = field.read(reader, value);
      return value as unknown as T;
    },
    write(writer, value) {
      if (value === null || typeof value !== 'object') throw new TlEncodeError(`${kind} must be an object`);
      const record = value as unknown as Record<string, unknown>;
      for (const [name, field] of entries) {
        try {
          field.write(writer, record[name], record);
        } catch (err) {
          if (err instanceof TlEncodeError && !err.message.startsWith(kind)) {
            throw new TlEncodeError(`${kind}.${name}: ${err.message}`);
          }
          throw err;
        }
      }
    },
  };
  return {
    kind,
    id,
    bare,
    read(reader) {
      const got = reader.uint32();
      if (got !== id) throw new TlDecodeError(`expected ${kind}, got constructor ${hexId(got)}`);
      return bare.read(reader);
    },
    write(writer, value) {
      writer.uint32(id);
      bare.write(writer, value);
    },
  };
}

/** A boxed type with several constructors, chosen by `kind` on write and by id on read. */
export function union<T extends TlKinded>(
  typeName: string,
  constructorsByKind: { [K in T['kind']]: TlConstructor<Extract<T, { kind: K }>> },
  /** Other `kind` spellings accepted on write (e.g. names from an older schema with the same id). */
  kindAliases: Readonly<Record<string, T['kind']>> = {},
): TlCodec<T> {
  const constructors = Object.values(constructorsByKind) as TlConstructor<T>[];
  const byId = new Map<number, TlConstructor<T>>(constructors.map((c) => [c.id, c]));
  const byKind = new Map<string, TlConstructor<T>>(constructors.map((c) => [c.kind, c]));
  for (const [alias, kind] of Object.entries(kindAliases)) byKind.set(alias, byKind.get(kind) as TlConstructor<T>);
  return {
    read(reader) {
      const id = reader.peekUint32();
      const ctor = byId.get(id);
      if (!ctor) throw new TlDecodeError(`unknown ${typeName} constructor ${hexId(id)}`);
      return ctor.read(reader);
    },
    write(writer, value) {
      const ctor = byKind.get(value?.kind);
      if (!ctor) throw new TlEncodeError(`${String(value?.kind)} is not a ${typeName}`);
      ctor.write(writer, value);
    },
  };
}

export function hexId(id: number): string {
  return `0x${(id >>> 0).toString(16).padStart(8, '0')}`;
}

/** Serializes one value with a codec. */
export function encodeTl<T>(codec: TlCodec<T>, value: T): Buffer {
  const writer = new TlWriter();
  codec.write(writer, value);
  return writer.build();
}

/** Deserializes a whole buffer with a codec; trailing bytes are an error. */
export function decodeTl<T>(codec: TlCodec<T>, data: Buffer): T {
  const reader = new TlReader(data);
  const value = codec.read(reader);
  reader.expectEnd();
  return value;
}
