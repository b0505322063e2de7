// What a legal action is, read from its text (the engine's notation,
// engine/action.cc: "build_road e17", "move_knight n3 n9", "move_robber h7 rob 2"):
// where on the board it happens, if anywhere, and what to call it. The page
// highlights those places and sends the action when one is clicked; everything
// else becomes a button. The app never decides legality itself: it only
// sorts the list the game host sent.
import { SEAT_LETTERS, CARD_NAMES } from '../names.js';

const seat = (s) => `seat ${SEAT_LETTERS[Number(s)] ?? s}`;
const num = (token) => Number(token.slice(1));
const words = (s) => String(s).replace(/_/g, ' ');
const at = (kind, token) => ({ kind, id: num(token) });

// Verbs whose one argument is the node where they happen, and what to call them.
const ON_NODE = {
  build_settlement: 'build a settlement',
  build_city: 'build a city',
  build_wall: 'build a city wall',
  recruit_knight: 'recruit a knight',
  activate_knight: 'activate this knight',
  promote_knight: 'promote this knight',
  chase_robber: 'chase the robber with this knight',
  relocate_knight: 'move your displaced knight here',
  pillage_city: 'the barbarians take this city',
  place_metropolis: 'put the metropolis here',
  commit_knight: 'commit this knight',
  remove_knight: 'remove this knight',
  repair_city: 'repair this city',
};

// Progress cards played on a place: the card's argument token says which.
const PLAY_ON = {
  engineer: 'play the engineer: a city wall here',
  medicine: 'play medicine: a city here',
  intrigue: 'play intrigue: displace this knight',
  saboteur: 'play the saboteur on this city',
  bishop: 'play the bishop: the robber here',
  merchant: 'play the merchant: put it here',
  diplomat: 'play the diplomat on this road',
};

// One legal action, described: {text, verb, label, at, to, group}.
//   at   where it is clicked on the board ({kind: 'node'|'edge'|'hex', id}), or null
//   to   a second place chosen after `at` (a knight's move, the inventor's swap)
//   group  what kind of control it is when it has no place on the board
export function describeAction(text) {
  const t = String(text).trim().split(/\s+/);
  const verb = t[0];
  const d = { text: String(text).trim(), verb, label: words(t.join(' ')), at: null, to: null, group: 'other' };
  if (ON_NODE[verb] && t[1]?.startsWith('n')) {
    d.at = at('node', t[1]);
    d.label = ON_NODE[verb];
    d.group = 'board';
  } else if (verb === 'build_road' && t[1]?.startsWith('e')) {
    d.at = at('edge', t[1]);
    d.label = 'build a road';
    d.group = 'board';
  } else if ((verb === 'move_knight' || verb === 'displace_knight') && t[2]) {
    d.at = at('node', t[1]);
    d.to = at('node', t[2]);
    d.label = verb === 'move_knight' ? `move this knight to node ${num(t[2])}` : `displace the knight at node ${num(t[2])}`;
    d.group = 'board';
  } else if (verb === 'place_knight' && t[1]?.startsWith('n')) {
    d.at = at('node', t[1]);
    d.label = `place a level ${t[2]} knight here`;
    d.group = 'board';
  } else if (verb === 'move_robber' && t[1]?.startsWith('h')) {
    d.at = at('hex', t[1]);
    d.label = t[2] === 'rob' ? `move the robber here and rob ${seat(t[3])}` : 'move the robber here';
    d.group = 'board';
  } else if (verb === 'play' && t[1] === 'inventor' && t[3]) {
    d.at = at('hex', t[2]);
    d.to = at('hex', t[3]);
    d.label = `play the inventor: swap with hex ${num(t[3])}`;
    d.group = 'board';
  } else if (verb === 'play' && PLAY_ON[t[1]] && /^[nhe]\d+$/.test(t[2] ?? '')) {
    const kind = { n: 'node', h: 'hex', e: 'edge' }[t[2][0]];
    d.at = at(kind, t[2]);
    d.label = PLAY_ON[t[1]];
    d.group = 'board';
  } else {
    Object.assign(d, control(t));
  }
  return d;
}

// Actions without a place: a group for the panel that shows them, and a label.
function control(t) {
  const [verb, a, b, c] = t;
  switch (verb) {
    case 'roll': return { group: 'turn', label: 'Roll the dice' };
    case 'end_turn': return { group: 'turn', label: 'End the turn' };
    case 'stop': return { group: 'turn', label: 'Stop (done with this card)' };
    case 'commit_done': return { group: 'turn', label: 'Done committing knights' };
    case 'bank_trade': return { group: 'bank', label: `Give ${a} to the bank for ${b}`, give: a, take: b };
    case 'buy_improvement': return { group: 'improve', label: `Improve ${a}`, track: a };
    case 'discard': return { group: 'prompt', label: `Discard ${a}`, card: a };
    case 'discard_progress': return { group: 'prompt', label: `Discard ${words(a)}`, card: a };
    case 'aqueduct': return { group: 'prompt', label: `Take ${a} (aqueduct)`, card: a };
    case 'defender_deck': return { group: 'prompt', label: `Draw from the ${a} deck`, track: a };
    case 'take_progress': return { group: 'prompt', label: `Take ${words(a)}`, card: a };
    case 'take_card': return { group: 'prompt', label: `Take ${a}`, card: a };
    case 'give_card': return { group: 'prompt', label: `Give ${a}`, card: a };
    case 'harbor_offer': return { group: 'prompt', label: `Offer ${b} to ${seat(a)}`, seat: Number(a), card: b };
    case 'accept': return { group: 'trade', label: 'Accept the offer' };
    case 'decline': return { group: 'trade', label: 'Decline the offer' };
    case 'confirm': return { group: 'trade', label: `Trade with ${seat(a)}`, seat: Number(a) };
    case 'cancel': return { group: 'trade', label: 'Cancel the offer' };
    case 'buy_dev': return { group: 'progress', label: 'Buy a development card' };
    case 'play':
      if (a === 'alchemist') return { group: 'alchemist', label: `Play the alchemist: dice ${b} (yellow) and ${c} (red)`, card: a, yellow: Number(b), red: Number(c) };
      return { group: 'progress', label: `Play ${words(a)}${b ? ` (${words(t.slice(2).join(' '))})` : ''}`, card: a };
    case 'play_dev':
      return { group: 'progress', label: `Play ${words(a)}${b ? ` (${t.slice(2).join(', ')})` : ''}`, card: a };
    default: return { group: 'other', label: words(t.join(' ')) };
  }
}

const keyOf = (place) => `${place.kind}:${place.id}`;

// The legal list ([{code, text}]) sorted for the page: `places` maps a board
// place ("node:12") to the actions clicked there; `groups` maps a control
// group to its actions, in the host's order.
export function planLegal(legal) {
  const places = new Map();
  const groups = {};
  for (const action of legal) {
    const d = { ...describeAction(action.text), code: action.code };
    if (d.at) {
      const k = keyOf(d.at);
      if (!places.has(k)) places.set(k, []);
      places.get(k).push(d);
    } else {
      (groups[d.group] ||= []).push(d);
    }
  }
  return { places, groups };
}

// The places a first choice leads to (a knight's destinations, the inventor's
// second hex): place key -> the actions that end there.
export function secondPlaces(actions) {
  const places = new Map();
  for (const d of actions) {
    if (!d.to) continue;
    const k = keyOf(d.to);
    if (!places.has(k)) places.set(k, []);
    places.get(k).push(d);
  }
  return places;
}

// ---- Trade offers: built here, checked by the engine ---------------------------------

// "2brick 1wool", or "-" for nothing (engine/action.cc CardsToString).
export function cardsText(counts) {
  const parts = [];
  counts.forEach((n, c) => n > 0 && parts.push(`${n}${CARD_NAMES[c]}`));
  return parts.length ? parts.join(' ') : '-';
}

// An offer's text: cards per type (brick first) and the seats it is made to.
export function offerText(give, want, to) {
  const seats = [...to].sort((x, y) => x - y);
  return `offer give ${cardsText(give)} want ${cardsText(want)} to ${seats.length ? seats.join(',') : '-'}`;
}

export function counterText(give, want) {
  return `counter give ${cardsText(give)} want ${cardsText(want)}`;
}

// Position.trade packs 4 bits per card type (brick first).
export function unpackCards(bits) {
  return CARD_NAMES.map((_, c) => Math.floor(Number(bits) / 16 ** c) % 16);
}

export function cardsInWords(counts) {
  const parts = [];
  counts.forEach((n, c) => n > 0 && parts.push(`${n} ${CARD_NAMES[c]}`));
  return parts.length ? parts.join(', ') : 'nothing';
}
