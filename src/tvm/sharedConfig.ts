/**
 * A block config as it crosses to a TVM thread. Its base64 BoC is ~150 KB for a mainnet-like
 * config (the local chain's, from @ton/sandbox's default), and every get-method and emulation
 * task carries one: cloned as a string, it was copied on the sending thread at every task (the
 * index's token detection: piscina's postTask ~0.3 ms a run on the pipeline's thread, --cpu-prof,
 * 27 November) and again into the worker. A SharedArrayBuffer is shared, not copied, by
 * postMessage, so the text is put in one once per config and each thread decodes it once.
 */

/** A config's base64 text in shared memory, with an id the threads remember it by. */
export interface SharedConfigText {
  readonly id: number;
  /** The base64 text, one byte a character (base64 is ASCII). */
  readonly bytes: SharedArrayBuffer;
}

/** What a task carries: the text itself (any caller may still send it) or its shared copy. */
export type ConfigText = string | SharedConfigText;

/** Configs kept shared per side: a few blocks' configs live at once (a new one per config change). */
const KEPT = 4;

/** The sending side: shared copies by text (the same ChainConfig's string, so its hash is computed once). */
const shared = new Map<string, SharedConfigText>();
let nextId = 1;

/** `text` in shared memory (the same copy for the same text while it is among the last few). */
export function shareConfig(text: string): SharedConfigText {
  const known = shared.get(text);
  if (known) return known;
  const bytes = new SharedArrayBuffer(text.length);
  Buffer.from(bytes).write(text, 'latin1');
  const copy: SharedConfigText = { id: nextId++, bytes };
  if (shared.size >= KEPT) shared.delete(shared.keys().next().value!);
  shared.set(text, copy);
  return copy;
}

/** The receiving side (a TVM thread): decoded texts by id. */
const decoded = new Map<number, { readonly length: number; readonly text: string }>();

/**
 * The config text of a task. Ids come from the one sending side of this thread's pool; the length
 * is checked too, so a stale id could never hand a task another config of another size.
 */
export function configTextOf(config: ConfigText): string {
  if (typeof config === 'string') return config;
  const known = decoded.get(config.id);
  if (known && known.length === config.bytes.byteLength) return known.text;
  const text = Buffer.from(config.bytes).toString('latin1');
  if (decoded.size >= KEPT) decoded.delete(decoded.keys().next().value!);
  decoded.set(config.id, { length: config.bytes.byteLength, text });
  return text;
}
