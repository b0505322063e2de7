'use strict';
// Typed access to actions, pending decisions and events, read from
// docs/protocol.json: the reference the engine generates (`metropolis-engine
// reference --json`), so that names, fields and text forms are the engine's and
// no number is written here twice.
//
//   const protocol = Protocol.load();          // docs/protocol.json of this tree
//   const a = protocol.action(0x0d00000000120000n);
//   a.name;   // 'build_settlement'
//   a.text;   // 'build_settlement n18', as the engine writes it
//   protocol.action('0x0c00000000110000').a;   // 17

const fs = require('node:fs');
const path = require('node:path');

const DEFAULT_FILE = path.join(__dirname, '..', '..', '..', 'docs', 'protocol.json');

// "0 brick, 1 lumber, ..." in a field kind's description: the names by number.
function namesOf(values) {
  const names = [];
  for (const m of values.matchAll(/(\d+) ([a-z_]+)/g)) names[Number(m[1])] = m[2];
  return names;
}

// 64-bit codes arrive as BigInt, decimal strings (protobuf fixed64 read with
// `longs: String`), hex strings or safe integers.
function toCode(code) {
  if (typeof code === 'bigint') return BigInt.asUintN(64, code);
  if (typeof code === 'number') {
    if (!Number.isSafeInteger(code) || code < 0) throw new RangeError(`action code ${code} is not a safe non-negative integer`);
    return BigInt(code);
  }
  if (typeof code === 'string' && /^(0x[0-9a-fA-F]{1,16}|\d{1,20})$/.test(code)) return BigInt.asUintN(64, BigInt(code));
  throw new TypeError(`not an action code: ${String(code)}`);
}

const HIDDEN_CARD = 254;  // a card the receiver may not see (MaskEvent)

class Action {
  constructor(protocol, code) {
    this.code = code;
    this.type = Number(code >> 56n);
    this.a = Number((code >> 16n) & 0xffn);
    this.b = Number((code >> 8n) & 0xffn);
    this.c = Number(code & 0xffn);
    const info = protocol.actionTypes.get(this.type);
    this.name = info ? info.name : null;
    this.isChance = info ? info.chance : false;
    Object.defineProperty(this, 'protocol', { value: protocol });
  }

  // The engine's text form, e.g. "move_robber h7 rob 2" (ActionToString).
  get text() { return this.protocol.format(this.code); }

  // Trade offers and counters: the cards given and wanted (8 counts each, by
  // card type) and an offer's addressees (seats).
  get trade() {
    const info = this.protocol.actionTypes.get(this.type);
    if (!info || info.fields[0]?.kind !== 'cards') return null;
    const unpack = (shift) => Array.from({ length: 8 }, (_, t) => Number((this.code >> BigInt(shift + 3 * t)) & 7n));
    const mask = Number((this.code >> 48n) & 0xfn);
    return { give: unpack(0), want: unpack(24), to: [0, 1, 2, 3].filter((s) => (mask >> s) & 1) };
  }

  toString() { return this.text; }
  toJSON() { return { code: `0x${this.code.toString(16).padStart(16, '0')}`, text: this.text }; }
}

class Protocol {
  constructor(reference) {
    this.rulesVersion = reference.rules_version;
    this.actionTypes = new Map(reference.actions.map((a) => [a.type, a]));
    this.actionByName = new Map(reference.actions.map((a) => [a.name, a]));
    this.pendingKinds = new Map(reference.pending.map((p) => [p.kind, p]));
    this.eventTypes = new Map(reference.events.map((e) => [e.type, e]));
    this.eventByProto = new Map(reference.events.map((e) => [e.proto, e]));
    this.playParameters = new Map(reference.play_progress_parameters.map((p) => [p.card, p]));
    this.devParameters = new Map(reference.play_dev_parameters.map((p) => [p.card, p]));
    const kinds = new Map(reference.field_kinds.map((k) => [k.kind, k]));
    const names = (kind) => namesOf(kinds.get(kind)?.values ?? '');
    this.names = {
      card: names('card'), track: names('track'), progress: names('progress'), dev: names('dev'),
      event_face: names('event_face'),
    };
  }

  // Reads docs/protocol.json (or `file`); METROPOLIS_PROTOCOL_JSON overrides the default.
  static load(file = process.env.METROPOLIS_PROTOCOL_JSON || DEFAULT_FILE) {
    return new Protocol(JSON.parse(fs.readFileSync(file, 'utf8')));
  }

  action(code) { return new Action(this, toCode(code)); }

  // The pending-decision kind's reference entry ({kind, name, role, ...}), or null.
  pending(kind) { return this.pendingKinds.get(Number(kind)) ?? null; }

  // An event type by number or by its proto name ('EVENT_PRODUCED').
  eventType(type) {
    return (typeof type === 'string' ? this.eventByProto.get(type) : this.eventTypes.get(Number(type))) ?? null;
  }

  // One byte of an action in its field kind's text form (FieldToString).
  field(kind, v) {
    const named = (list) => (v === HIDDEN_CARD ? '?' : list[v] ?? `?${v}`);
    switch (kind) {
      case 'node': case 'city_or_none': return `n${v}`;
      case 'edge': return `e${v}`;
      case 'hex': return `h${v}`;
      case 'card': case 'resource': case 'commodity': return named(this.names.card);
      case 'track': return named(this.names.track);
      case 'progress': return named(this.names.progress);
      case 'dev': return named(this.names.dev);
      case 'event_face': return this.names.event_face[v] ?? `?${v}`;
      case 'die': return v === 0 ? '-' : String(v);
      default: return String(v);  // seat, die_value, level
    }
  }

  // "2brick 1wool", or "-" (CardsToString); `bits` is 3 bits per card type.
  cards(bits) {
    const parts = [];
    for (let t = 0; t < 8; ++t) {
      const n = Number((bits >> BigInt(3 * t)) & 7n);
      if (n) parts.push(`${n}${this.names.card[t]}`);
    }
    return parts.length ? parts.join(' ') : '-';
  }

  // The engine's text of an action code (engine/action.h, ActionToString).
  format(code) {
    code = toCode(code);
    const type = Number(code >> 56n);
    const info = this.actionTypes.get(type);
    if (!info) return `?${type}`;
    let s = info.name;
    if (info.fields[0]?.kind === 'cards') {
      s += ` give ${this.cards(code & 0xffffffn)} want ${this.cards((code >> 24n) & 0xffffffn)}`;
      if (info.constant === 'TRADE_OFFER') {
        const mask = Number((code >> 48n) & 0xfn);
        const seats = [0, 1, 2, 3].filter((seat) => (mask >> seat) & 1);
        s += ` to ${seats.length ? seats.join(',') : '-'}`;
      }
      return s;
    }
    const bytes = { a: Number((code >> 16n) & 0xffn), b: Number((code >> 8n) & 0xffn), c: Number(code & 0xffn) };
    const params = info.name === 'play' ? this.playParameters.get(bytes.a)
      : info.name === 'play_dev' ? this.devParameters.get(bytes.a) : null;
    for (const f of info.fields) {
      let kind = f.kind;
      if (kind === 'per_card') kind = params ? params[f.byte] : null;
      const v = bytes[f.byte];
      if (!kind || (kind === 'city_or_none' && v === 0)) continue;
      if (kind === 'victim') {
        if (v !== 0) s += ` rob ${v - 1}`;
        continue;
      }
      s += ` ${this.field(kind, v)}`;
    }
    return s;
  }

  // An event as the host sends it (proto-loader's object) with its type's
  // number and name: {type, name, seat, other, a, b, c, action}.
  event(e) {
    const info = this.eventType(e.type);
    // Only EVENT_ACTION and EVENT_TRADE_EXECUTED carry an action.
    const action = e.action ? this.action(e.action.code) : null;
    return {
      type: info ? info.type : Number.isInteger(e.type) ? e.type : -1,
      name: info ? info.name : String(e.type),
      seat: e.seat, other: e.other, a: e.a, b: e.b, c: e.c, action,
    };
  }
}

module.exports = { Protocol, Action, toCode, HIDDEN_CARD };
