// The game's log in plain sentences: "B Ana builds a road", "C Bo robs B Ana
// (1 card)", "the barbarians attack: 5 against 3". Actions come in the
// engine's notation (docs/NOTATION.md, docs/PROTOCOL.md), events as game.proto
// Events; people are named with their seat's badge, every name escaped. A
// rare action or event keeps the engine's own words. Pure: markup only.
import { html, raw, seatBadge, CARD_NAMES, TRACK_NAMES, PROGRESS_NAMES, EVENT_FACES } from '../names.js';
import { cardText } from '../play/cards.js';

// A card's name, with what it does as its tooltip (play/cards.js).
const cardName = (name, dev = false) => {
  const text = cardText(name, { dev });
  return text ? html`<span class="card-name" title="${text}">${name}</span>` : html`${name}`;
};

const HIDDEN = 254;
const CHANCE = -2;
const spaced = (word) => String(word).replace(/_/g, ' ');
const cardCount = (n, c) => `${n} ${c}`;

// "2brick 1wool" (or "-") in words: "2 brick and 1 wool".
export function cardsInWords(list) {
  const items = list.filter((w) => w && w !== '-').map((w) => {
    const m = /^(\d+)([a-z_]+)$/.exec(w);
    return m ? cardCount(Number(m[1]), m[2]) : w;
  });
  if (!items.length) return 'nothing';
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

// "give 2brick want 1ore [to 1,3]" → {give, want, to}.
function tradeParts(words) {
  const at = (w) => words.indexOf(w);
  const g = at('give');
  const wi = at('want');
  const ti = at('to');
  return {
    give: g >= 0 ? words.slice(g + 1, wi >= 0 ? wi : undefined) : [],
    want: wi >= 0 ? words.slice(wi + 1, ti >= 0 ? ti : undefined) : [],
    to: ti >= 0 ? (words[ti + 1] ?? '').split(',').filter((x) => /^\d$/.test(x)).map(Number) : [],
  };
}

// Who acted at each step of a stored game, from its actions alone: chance, the
// setup's seat, the current player of the turn (end_turn passes it on), and
// an offer's addressees answering it in turn from the offerer's left (the
// engine's pending stack). Any other answer owed by another seat (a discard,
// a displaced knight) names nobody here: which seat owes it is in the
// position, not in the actions; the replay names it once it shows the step.
const ANSWERS = new Set([
  'discard', 'relocate_knight', 'pillage_city', 'aqueduct', 'place_metropolis', 'commit_knight', 'commit_done',
  'discard_progress', 'defender_deck', 'remove_knight', 'take_progress', 'give_card',
]);
const TRADE_ANSWERS = new Set(['accept', 'decline', 'counter']);
const CHANCE_ACTIONS = new Set(['chance_start_player', 'dice', 'steal', 'draw', 'dev_card']);

export function actorsOf(texts, numSeats, startSeat) {
  const n = numSeats;
  let start = startSeat;
  let setupBuilds = 0; // buildings and roads placed in setup: two a seat, each round
  let current = -1;
  let answering = []; // the seats yet to answer the open offer, in turn
  return texts.map((text) => {
    const [verb, arg] = String(text).split(' ');
    if (CHANCE_ACTIONS.has(verb)) {
      if (verb === 'chance_start_player') start = Number(arg);
      return CHANCE;
    }
    if (current < 0) {
      // The setup: the start seat onwards, then back (engine SetupSeat).
      const pair = Math.floor(setupBuilds / 2);
      if (pair < 2 * n && /^build_(settlement|city|road)$/.test(verb)) {
        ++setupBuilds;
        if (setupBuilds === 4 * n) current = start;
        return pair < n ? (start + pair) % n : (start + (2 * n - 1 - pair)) % n;
      }
      current = start;
    }
    if (ANSWERS.has(verb)) return null;
    if (TRADE_ANSWERS.has(verb)) return answering.length ? answering.shift() : null;
    answering = [];
    if (verb === 'offer') {
      const to = tradeParts(String(text).split(' ')).to;
      answering = to.sort((a, b) => ((a - current + n) % n) - ((b - current + n) % n));
    }
    const seat = current;
    if (verb === 'end_turn') current = (current + 1) % n;
    return seat;
  });
}

// "2 wool", or "a card" when the event hides which.
const eventCards = (c, n = 1) => (c === HIDDEN ? (n === 1 ? 'a card' : `${n} cards`) : cardCount(n, CARD_NAMES[c] ?? `card ${c}`));
// One card named by an action, or "a card" when the seat's view hides it ("?").
const oneCard = (name) => (name === '?' ? 'a card' : `1 ${spaced(name)}`);

// The sentences that are "WHO does something", by the action's verb: what
// follows the seat's name, as plain words (escaped like any value) or as a
// function of the action's words after the verb and of `person` (a seat's
// name as markup) that returns markup. Kept as a table so that a new verb is
// one line; the actions that say something else or keep state between steps
// (the roll, the dice, a card played) stay in Narrator.action. A Map, so that
// a verb such as "constructor" is no phrase.
const ACTION_PHRASES = new Map(Object.entries({
  end_turn: 'ends the turn',
  build_road: 'builds a road',
  build_settlement: 'builds a settlement',
  build_city: 'builds a city',
  build_wall: 'builds a city wall',
  recruit_knight: 'recruits a knight',
  activate_knight: 'activates a knight',
  promote_knight: 'promotes a knight',
  move_knight: 'moves a knight',
  displace_knight: 'displaces a knight',
  chase_robber: 'chases the robber away with a knight',
  relocate_knight: 'moves the displaced knight',
  buy_improvement: ([track]) => html`improves ${spaced(track)}`,
  bank_trade: ([give, take]) => html`trades ${spaced(give)} with the bank for 1 ${spaced(take)}`,
  move_robber: ([, rob, victim], person) => (rob === 'rob' ? html`moves the robber and robs ${person(Number(victim))}` : 'moves the robber'),
  discard: ([name]) => html`discards ${oneCard(name)}`,
  pillage_city: 'loses a city to the barbarians',
  aqueduct: ([name]) => html`takes 1 ${spaced(name)} (aqueduct)`,
  place_metropolis: 'places a metropolis',
  commit_knight: 'sends a knight against the barbarians',
  commit_done: 'sends no more knights',
  discard_progress: 'puts a progress card back',
  offer: (words, person) => {
    const t = tradeParts(words);
    const to = t.to.length ? html` to ${t.to.map((s, i) => html`${i ? ', ' : ''}${person(s)}`)}` : '';
    return html`offers ${cardsInWords(t.give)} for ${cardsInWords(t.want)}${to}`;
  },
  accept: 'accepts the offer',
  decline: 'declines the offer',
  counter: (words) => {
    const t = tradeParts(words);
    return html`counters: ${cardsInWords(t.give)} for ${cardsInWords(t.want)}`;
  },
  confirm: ([partner], person) => html`trades with ${person(Number(partner))}`,
  cancel: 'withdraws the offer',
  buy_dev: 'buys a development card',
  play_dev: ([name]) => html`plays ${cardName(spaced(name), true)}`,
  take_card: ([name]) => html`takes ${oneCard(name)}`,
  give_card: ([name]) => html`gives ${oneCard(name)}`,
  take_progress: 'takes a progress card',
}));

// The same for events (game.proto Event), by type: a function has the event
// and `other` (the name of its other seat, as markup). Events that name no
// seat first, or say "nobody" when no seat holds something, stay in
// Narrator.event.
const EVENT_PHRASES = new Map(Object.entries({
  EVENT_PRODUCED: (e) => html`receives ${eventCards(e.b, e.a)}`,
  EVENT_BARBARIAN_SHARE: (e) => html`defends with strength ${e.a}`,
  EVENT_DEFENDER: 'is a Defender of Catan (1 VP)',
  EVENT_CITY_PILLAGED: 'loses a city to the barbarians',
  EVENT_MUST_DISCARD: (e) => html`must discard ${e.a} cards`,
  EVENT_STOLE: (e, other) => html`robs ${other} (${e.b === HIDDEN ? '1 card' : CARD_NAMES[e.b]})`,
  EVENT_PROGRESS_DRAWN: (e) => html`draws ${e.b === HIDDEN ? 'a progress card' : cardName(PROGRESS_NAMES[e.b])} from the ${TRACK_NAMES[e.a]} deck`,
  EVENT_VICTORY_CARD_REVEALED: (e) => html`reveals ${PROGRESS_NAMES[e.b]} (1 VP)`,
  EVENT_TRADE_EXECUTED: (e, other) => {
    const t = tradeParts(String(e.action?.text ?? '').split(/\s+/));
    return html`trades ${cardsInWords(t.give)} for ${cardsInWords(t.want)} with ${other}`;
  },
  EVENT_PAID: (e) => html`pays ${eventCards(e.b, e.a)}`,
  EVENT_CARD_GIVEN: (e, other) => html`gives ${eventCards(e.b, e.a)} to ${other}`,
  EVENT_KNIGHT_REMOVED: 'loses a knight',
  EVENT_KNIGHT_DESERTED: 'loses a knight',
  EVENT_MERCHANT_PLACED: 'places the merchant (1 VP)',
  EVENT_PROGRESS_TAKEN: (e, other) => html`takes ${e.b === HIDDEN ? 'a progress card' : PROGRESS_NAMES[e.b]} from ${other}`,
}));

// "WHO phrase", the phrase a table's, made with `args` when it is a function.
const sentence = (who, phrase, ...args) => html`${who} ${typeof phrase === 'function' ? phrase(...args) : phrase}`;

export class Narrator {
  // players: [{seat, name}] by seat.
  constructor(players) {
    this.players = players;
    this.roller = null; // the seat whose roll the next dice answer
    this.alchemist = null; // dice fixed by an Alchemist this turn: [yellow, red]
  }

  person(seat) {
    if (seat === CHANCE) return raw('chance');
    if (seat === null || seat === undefined || seat < 0) return raw('someone');
    return html`<span class="who">${seatBadge(seat)} ${this.players[seat]?.name ?? `seat ${seat}`}</span>`;
  }

  // One action (its engine text) taken by `seat` (-2 chance; null unknown).
  action(text, seat) {
    const who = this.person(seat);
    const words = String(text ?? '').trim().split(/\s+/);
    const [verb, a, b, c] = words;
    const phrase = ACTION_PHRASES.get(verb);
    if (phrase !== undefined) return sentence(who, phrase, words.slice(1), (s) => this.person(s));
    switch (verb) {
      case 'chance_start_player':
        return html`the dice choose who starts: ${this.person(Number(a))}`;
      case 'roll':
        this.roller = seat;
        return html`${who} rolls the dice`;
      case 'dice': {
        const by = this.roller;
        this.roller = null;
        const face = EVENT_FACES[['ship', 'trade', 'politics', 'science'].indexOf(c)] ?? spaced(c ?? '');
        const [y, r] = /^\d$/.test(a) && Number(a) > 0 ? [Number(a), Number(b)] : this.alchemist ?? [0, 0];
        this.alchemist = null;
        const fixed = /^\d$/.test(a) && Number(a) > 0 ? '' : ', fixed by the Alchemist';
        const total = y && r ? html`${y + r} (red ${r}, yellow ${y}${fixed}; event die: ${face})` : html`(event die: ${face})`;
        return by === null || by === undefined ? html`the dice show ${total}` : html`${this.person(by)} rolls ${total}`;
      }
      case 'steal':
        return a && a !== '?' ? html`the card stolen: ${spaced(a)}` : html`a card is stolen`;
      case 'draw':
        return a && a !== '?' ? html`the progress card drawn: ${spaced(a)}` : html`a progress card is drawn`;
      case 'dev_card':
        return html`a development card is drawn`;
      case 'play':
        if (a === 'alchemist') this.alchemist = [Number(b), Number(c)];
        return html`${who} plays ${PROGRESS_NAMES.includes(spaced(a)) ? cardName(spaced(a)) : text}`;
      default:
        return html`${who}: ${text || 'an action'}`;
    }
  }

  // One event (game.proto Event).
  event(e) {
    const who = this.person(e.seat);
    const phrase = EVENT_PHRASES.get(e.type);
    if (phrase !== undefined) return sentence(who, phrase, e, this.person(e.other));
    switch (e.type) {
      case 'EVENT_ACTION':
        return this.action(e.action?.text, e.seat);
      case 'EVENT_BANK_SHORTAGE':
        return html`nobody receives ${CARD_NAMES[e.b]}: the bank is short`;
      case 'EVENT_BARBARIANS_ADVANCE':
        return html`the barbarians advance to ${e.a} of 7`;
      case 'EVENT_BARBARIAN_ATTACK':
        return html`the barbarians attack: ${e.a} against ${e.b}; Catan ${e.c ? 'holds' : 'loses'}`;
      case 'EVENT_LONGEST_ROAD':
        return e.seat >= 0 ? html`${who} takes the longest road` : html`nobody holds the longest road`;
      case 'EVENT_LARGEST_ARMY':
        return e.seat >= 0 ? html`${who} takes the largest army` : html`nobody holds the largest army`;
      case 'EVENT_METROPOLIS':
        return e.seat >= 0 ? html`${who} owns the ${TRACK_NAMES[e.a]} metropolis` : html`nobody owns the ${TRACK_NAMES[e.a]} metropolis`;
      case 'EVENT_GAME_OVER':
        return e.seat >= 0 ? html`${who} wins` : html`the game ends without a winner`;
      default:
        return null; // the engine's words (viewer.js describeEvent)
    }
  }
}
