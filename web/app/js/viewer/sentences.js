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
      case 'end_turn':
        return html`${who} ends the turn`;
      case 'build_road':
        return html`${who} builds a road`;
      case 'build_settlement':
        return html`${who} builds a settlement`;
      case 'build_city':
        return html`${who} builds a city`;
      case 'build_wall':
        return html`${who} builds a city wall`;
      case 'recruit_knight':
        return html`${who} recruits a knight`;
      case 'activate_knight':
        return html`${who} activates a knight`;
      case 'promote_knight':
        return html`${who} promotes a knight`;
      case 'move_knight':
        return html`${who} moves a knight`;
      case 'displace_knight':
        return html`${who} displaces a knight`;
      case 'chase_robber':
        return html`${who} chases the robber away with a knight`;
      case 'relocate_knight':
        return html`${who} moves the displaced knight`;
      case 'buy_improvement':
        return html`${who} improves ${spaced(a)}`;
      case 'bank_trade':
        return html`${who} trades ${spaced(a)} with the bank for 1 ${spaced(b)}`;
      case 'move_robber':
        return b === 'rob' ? html`${who} moves the robber and robs ${this.person(Number(c))}` : html`${who} moves the robber`;
      case 'discard':
        return html`${who} discards ${a === '?' ? 'a card' : `1 ${spaced(a)}`}`;
      case 'pillage_city':
        return html`${who} loses a city to the barbarians`;
      case 'aqueduct':
        return html`${who} takes 1 ${spaced(a)} (aqueduct)`;
      case 'place_metropolis':
        return html`${who} places a metropolis`;
      case 'commit_knight':
        return html`${who} sends a knight against the barbarians`;
      case 'commit_done':
        return html`${who} sends no more knights`;
      case 'discard_progress':
        return html`${who} puts a progress card back`;
      case 'offer': {
        const t = tradeParts(words);
        const to = t.to.length ? html` to ${t.to.map((s, i) => html`${i ? ', ' : ''}${this.person(s)}`)}` : '';
        return html`${who} offers ${cardsInWords(t.give)} for ${cardsInWords(t.want)}${to}`;
      }
      case 'accept':
        return html`${who} accepts the offer`;
      case 'decline':
        return html`${who} declines the offer`;
      case 'counter': {
        const t = tradeParts(words);
        return html`${who} counters: ${cardsInWords(t.give)} for ${cardsInWords(t.want)}`;
      }
      case 'confirm':
        return html`${who} trades with ${this.person(Number(a))}`;
      case 'cancel':
        return html`${who} withdraws the offer`;
      case 'play':
        if (a === 'alchemist') this.alchemist = [Number(b), Number(c)];
        return html`${who} plays ${PROGRESS_NAMES.includes(spaced(a)) ? cardName(spaced(a)) : text}`;
      case 'buy_dev':
        return html`${who} buys a development card`;
      case 'play_dev':
        return html`${who} plays ${cardName(spaced(a), true)}`;
      case 'take_card':
        return html`${who} takes ${a === '?' ? 'a card' : `1 ${spaced(a)}`}`;
      case 'give_card':
        return html`${who} gives ${a === '?' ? 'a card' : `1 ${spaced(a)}`}`;
      case 'take_progress':
        return html`${who} takes a progress card`;
      default:
        return html`${who}: ${text || 'an action'}`;
    }
  }

  // One event (game.proto Event).
  event(e) {
    const who = this.person(e.seat);
    const other = this.person(e.other);
    const card = (c, n = 1) => (c === HIDDEN ? (n === 1 ? 'a card' : `${n} cards`) : cardCount(n, CARD_NAMES[c] ?? `card ${c}`));
    switch (e.type) {
      case 'EVENT_ACTION':
        return this.action(e.action?.text, e.seat);
      case 'EVENT_PRODUCED':
        return html`${who} receives ${card(e.b, e.a)}`;
      case 'EVENT_BANK_SHORTAGE':
        return html`nobody receives ${CARD_NAMES[e.b]}: the bank is short`;
      case 'EVENT_BARBARIANS_ADVANCE':
        return html`the barbarians advance to ${e.a} of 7`;
      case 'EVENT_BARBARIAN_ATTACK':
        return html`the barbarians attack: ${e.a} against ${e.b}; Catan ${e.c ? 'holds' : 'loses'}`;
      case 'EVENT_BARBARIAN_SHARE':
        return html`${who} defends with strength ${e.a}`;
      case 'EVENT_DEFENDER':
        return html`${who} is a Defender of Catan (1 VP)`;
      case 'EVENT_CITY_PILLAGED':
        return html`${who} loses a city to the barbarians`;
      case 'EVENT_MUST_DISCARD':
        return html`${who} must discard ${e.a} cards`;
      case 'EVENT_STOLE':
        return html`${who} robs ${other} (${e.b === HIDDEN ? '1 card' : CARD_NAMES[e.b]})`;
      case 'EVENT_PROGRESS_DRAWN':
        return html`${who} draws ${e.b === HIDDEN ? 'a progress card' : cardName(PROGRESS_NAMES[e.b])} from the ${TRACK_NAMES[e.a]} deck`;
      case 'EVENT_VICTORY_CARD_REVEALED':
        return html`${who} reveals ${PROGRESS_NAMES[e.b]} (1 VP)`;
      case 'EVENT_LONGEST_ROAD':
        return e.seat >= 0 ? html`${who} takes the longest road` : html`nobody holds the longest road`;
      case 'EVENT_LARGEST_ARMY':
        return e.seat >= 0 ? html`${who} takes the largest army` : html`nobody holds the largest army`;
      case 'EVENT_METROPOLIS':
        return e.seat >= 0 ? html`${who} owns the ${TRACK_NAMES[e.a]} metropolis` : html`nobody owns the ${TRACK_NAMES[e.a]} metropolis`;
      case 'EVENT_TRADE_EXECUTED': {
        const t = tradeParts(String(e.action?.text ?? '').split(/\s+/));
        return html`${who} trades ${cardsInWords(t.give)} for ${cardsInWords(t.want)} with ${other}`;
      }
      case 'EVENT_GAME_OVER':
        return e.seat >= 0 ? html`${who} wins` : html`the game ends without a winner`;
      case 'EVENT_PAID':
        return html`${who} pays ${card(e.b, e.a)}`;
      case 'EVENT_CARD_GIVEN':
        return html`${who} gives ${card(e.b, e.a)} to ${other}`;
      case 'EVENT_KNIGHT_REMOVED':
      case 'EVENT_KNIGHT_DESERTED':
        return html`${who} loses a knight`;
      case 'EVENT_MERCHANT_PLACED':
        return html`${who} places the merchant (1 VP)`;
      case 'EVENT_PROGRESS_TAKEN':
        return html`${who} takes ${e.b === HIDDEN ? 'a progress card' : PROGRESS_NAMES[e.b]} from ${other}`;
      default:
        return null; // the engine's words (viewer.js describeEvent)
    }
  }
}
