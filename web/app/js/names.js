// Names of the engine's numbers (engine/types.h, engine/progress.h), and small
// text helpers shared by the pages.

// Seats are letters in the app: a letter reads without colour, and it is not
// mistaken for the 0-based seat numbers of the API.
export const SEAT_LETTERS = ['A', 'B', 'C', 'D'];
export const TERRAIN_NAMES = ['hills', 'forest', 'pasture', 'fields', 'mountains', 'desert'];
export const CARD_NAMES = ['brick', 'lumber', 'wool', 'grain', 'ore', 'cloth', 'coin', 'paper'];
export const TRACK_NAMES = ['trade', 'politics', 'science'];
export const EVENT_FACES = ['ship', 'trade gate', 'politics gate', 'science gate'];
export const PROGRESS_NAMES = [
  'alchemist', 'crane', 'engineer', 'inventor', 'irrigation', 'medicine', 'mining', 'printer', 'road building', 'smith',
  'bishop', 'constitution', 'deserter', 'diplomat', 'intrigue', 'saboteur', 'spy', 'warlord', 'wedding',
  'commercial harbor', 'master merchant', 'merchant', 'merchant fleet', 'resource monopoly', 'trade monopoly',
];
// The base game's development cards (ruleset base; docs/PROTOCOL.md, PLAY_DEV).
export const DEV_NAMES = ['knight', 'victory point', 'road building', 'year of plenty', 'monopoly'];
// Whether a game's configuration is the base game's (ruleset base), as the
// JSON of GameConfig names it or numbers it.
export const isBaseRuleset = (config) => {
  const r = config?.options?.ruleset;
  return r === 1 || r === 'RULESET_BASE';
};
export const PHASES = {
  PHASE_SETUP: 'setup',
  PHASE_BEFORE_ROLL: 'before the roll',
  PHASE_ACTION: 'actions',
  PHASE_GAME_OVER: 'game over',
};

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeXml(text) {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}
// A tagged template that escapes every interpolated value unless it is
// already markup (wrapped with raw()).
export function html(strings, ...values) {
  let out = strings[0];
  values.forEach((v, i) => {
    out += (v && v.__raw !== undefined ? v.__raw : Array.isArray(v) ? v.map((x) => (x && x.__raw !== undefined ? x.__raw : escapeXml(x))).join('') : escapeXml(v)) + strings[i + 1];
  });
  return { __raw: out, toString: () => out };
}
export const raw = (markup) => ({ __raw: String(markup), toString: () => String(markup) });

export function formatDate(ms) {
  if (!ms) return '–';
  const d = new Date(Number(ms));
  return d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}
export const fixed = (x, digits = 2) => (x === null || x === undefined ? '–' : Number(x).toFixed(digits));

// A page: a <section> holding `markup` (from html``), with a title.
export function pageOf(markup, title, extra = {}) {
  const element = document.createElement('section');
  element.className = 'page';
  element.innerHTML = String(markup);
  return { element, title, ...extra };
}

// Who played a stored game's seat (the gateway's `played_by`): the host's own bot,
// or a client over the network, which need not have an account (no link then).
export function playedByTag(p) {
  if (p.played_by === 'built_in') return raw('<span class="tag">built-in bot</span>');
  return p.identity_id ? raw('') : raw('<span class="tag" title="played over the network, without an account">network</span>');
}

// A seat's badge: its letter on its colour, with a pattern of its own.
export function seatBadge(seat) {
  return raw(`<span class="seat-badge seat-${seat}" aria-label="seat ${SEAT_LETTERS[seat]}">${SEAT_LETTERS[seat] ?? '?'}</span>`);
}
