import { b64, opcodeHex, str64, type Bytes } from './format';

/**
 * A `messages` row with its body and init state (message_contents) as sql/messages.ts selects it;
 * `B` is how its bytea columns come (format.ts's Bytes: Buffers, or base64 text from sql/bundle.ts).
 */
export interface MessageRow<B extends Bytes = Buffer> {
  tx_hash: B | null;
  tx_lt: string | null;
  msg_hash: B;
  direction: 'in' | 'out' | null;
  trace_id: B | null;
  source: string | null;
  destination: string | null;
  value: string | null;
  value_extra_currencies: Record<string, string> | null;
  fwd_fee: string | null;
  ihr_fee: string | null;
  extra_flags: string | null;
  created_lt: string | null;
  created_at: string | null;
  opcode: number | null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  import_fee: string | null;
  body_hash: B | null;
  init_state_hash: B | null;
  msg_hash_norm: B | null;
  in_msg_tx_hash?: B | null;
  out_msg_tx_hash?: B | null;
  body_content_hash: B | null;
  body: B | null;
  init_content_hash: B | null;
  init_body: B | null;
}

/** models.MessageContent: the cell's hash and its BoC in base64; `decoded` stays null here. */
function content(hash: Bytes | null, boc: Bytes | null): Record<string, unknown> | null {
  if (!hash) return null;
  return { hash: b64(hash), body: b64(boc), decoded: null };
}

/**
 * models.Message of ton-index-go. `decoded_opcode` and `message_content.decoded` are null until
 * the token/action layer decodes bodies (docs/v3.md); `hash_norm` (TEP-467) only where the index
 * stored one (inbound external messages).
 */
export function toMessageJson(row: MessageRow<Bytes>): Record<string, unknown> {
  const json: Record<string, unknown> = {
    hash: b64(row.msg_hash),
    source: row.source,
    destination: row.destination,
    value: str64(row.value),
    value_extra_currencies: row.value_extra_currencies ?? null,
    fwd_fee: str64(row.fwd_fee),
    ihr_fee: str64(row.ihr_fee),
    extra_flags: str64(row.extra_flags),
    created_lt: str64(row.created_lt),
    created_at: str64(row.created_at),
    opcode: opcodeHex(row.opcode),
    decoded_opcode: null,
    ihr_disabled: row.ihr_disabled,
    bounce: row.bounce,
    bounced: row.bounced,
    import_fee: str64(row.import_fee),
  };
  if (row.in_msg_tx_hash) json['in_msg_tx_hash'] = b64(row.in_msg_tx_hash);
  if (row.out_msg_tx_hash) json['out_msg_tx_hash'] = b64(row.out_msg_tx_hash);
  json['message_content'] = content(row.body_content_hash, row.body);
  json['init_state'] = content(row.init_content_hash, row.init_body);
  if (row.msg_hash_norm) json['hash_norm'] = b64(row.msg_hash_norm);
  return json;
}
