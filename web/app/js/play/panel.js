// The controls beside the board for the seat being played: the decision and
// its countdown, the turn's buttons, the hand, progress cards, the
// city-improvement chart, bank trades, trade offers, and the prompt (a dialog)
// for decisions that come outside one's own turn or need a choice of cards.
// Markup only, from the plan of the legal actions (legal.js) and the seat's
// view; table.js wires the buttons (every button carries the code it sends).
import { html, raw, SEAT_LETTERS, CARD_NAMES, TRACK_NAMES, PROGRESS_NAMES } from '../names.js';
import { unpackCards, cardsInWords } from './legal.js';
import { cardText, pendingCard } from './cards.js';

// A button that plays a card carries the card's line as its tooltip.
const actionButton = (d, extra = '') => {
  const dev = d.text?.startsWith('play_dev ');
  const text = d.card && /^play(_dev)? /.test(d.text ?? '') ? cardText(d.card, { dev }) : '';
  return html`<button type="button" class="act" data-code="${d.code}" data-action="${d.text}"${text ? raw(html` title="${text}"`) : ''}${raw(extra)}>${d.label}</button>`;
};

export function handMarkup(hand) {
  const chips = (from, to) =>
    CARD_NAMES.slice(from, to)
      .map((name, i) => html`<li class="card card-${name}" data-card="${name}" data-count="${hand[from + i] ?? 0}"><span class="n">${hand[from + i] ?? 0}</span> ${name}</li>`)
      .map(String)
      .join('');
  return html`<div class="hand" data-hand>
    <h3>Resources</h3><ul class="cards">${raw(chips(0, 5))}</ul>
    <h3>Commodities</h3><ul class="cards">${raw(chips(5, 8))}</ul></div>`;
}

// Whether the seat may make a trade offer now (engine CheckTrade, TRD-1/TRD-3):
// its own action phase with nothing pending, and offers left this turn.
// Offers are never in the legal list: the engine checks each one sent.
export function canOffer(view, seat, plan, config) {
  const p = view.position;
  const max = config.options?.max_trade_offers_per_turn ?? 3;
  return p.current_seat === seat && p.phase === 'PHASE_ACTION' && !(p.pending?.length) &&
    p.offers_this_turn < max && (plan.groups.turn ?? []).some((d) => d.verb === 'end_turn');
}

// Card count inputs for one side of an offer.
function cardInputs(side, max) {
  return CARD_NAMES.map(
    (name, c) => html`<label class="count"><span>${name}</span><input type="number" inputmode="numeric" min="0" max="${Math.min(7, max[c])}" value="0" name="${side}-${name}" data-${side}="${c}"></label>`,
  );
}

export function offerBuilderMarkup(view, seat, { counter = false } = {}) {
  const p = view.position;
  const hand = p.players[seat].hand;
  const others = [];
  for (let s = 0; s < p.num_seats; ++s) if (s !== seat) others.push(s);
  return html`<form class="offer-builder" data-offer-form="${counter ? 'counter' : 'offer'}">
    <fieldset><legend>You give</legend><div class="counts">${cardInputs('give', hand)}</div></fieldset>
    <fieldset><legend>You want</legend><div class="counts">${cardInputs('want', CARD_NAMES.map(() => 7))}</div></fieldset>
    ${counter ? '' : html`<fieldset><legend>To</legend>${others.map((s) => html`<label><input type="checkbox" name="to" value="${s}" data-offer-to="${s}" checked> seat ${SEAT_LETTERS[s]}</label> `)}</fieldset>`}
    <button type="submit" data-offer-send>${counter ? 'Send the counter-offer' : 'Offer'}</button>
  </form>`;
}

// The panel for one decision (or for waiting, when plan is null).
export function panelMarkup({ view, seat, plan, config, waitingFor }) {
  const p = view.position;
  const me = p.players[seat];
  const g = plan?.groups ?? {};
  const playable = new Map();
  for (const d of g.progress ?? []) playable.set(d.card, d);
  const onBoard = new Set();
  for (const list of plan?.places?.values() ?? []) for (const d of list) if (d.verb === 'play') onBoard.add(d.text.split(' ')[1]);
  // Each card says what it does, under its name (cards.js).
  const progress = (me.progress ?? []).map((c) => {
    const name = PROGRESS_NAMES[c] ?? `card ${c}`;
    const engineName = name.replace(/ /g, '_');
    const text = cardText(name);
    const says = text ? html`<span class="card-text" data-card-text>${text}</span>` : '';
    const d = playable.get(engineName);
    if (d) return html`<li class="progress playable" data-progress="${engineName}">${actionButton(d)} <span class="tag">playable</span>${says}</li>`;
    if (onBoard.has(engineName)) return html`<li class="progress playable" data-progress="${engineName}">${name} <span class="tag">playable: choose its place on the board</span>${says}</li>`;
    if (engineName === 'alchemist' && g.alchemist) return html`<li class="progress playable" data-progress="alchemist">alchemist <span class="tag">playable below</span>${says}</li>`;
    return html`<li class="progress" data-progress="${engineName}">${name}${says}</li>`;
  });
  const improve = new Map((g.improve ?? []).map((d) => [d.track, d]));
  const chart = TRACK_NAMES.map((t, i) => {
    const level = me.level?.[i] ?? 0;
    const steps = [1, 2, 3, 4, 5].map((n) => html`<span class="level${n <= level ? ' done' : ''}" aria-hidden="true">${n <= level ? '■' : '□'}</span>`);
    const d = improve.get(t);
    return html`<tr class="track-${i}" data-track="${t}" data-level="${level}"><th scope="row">${t}</th><td>${steps} <span class="visually-hidden">level</span> ${level} of 5</td>
      <td>${d ? actionButton(d, ` data-improve="${t}"`) : ''}</td></tr>`;
  });
  const bank = g.bank ?? [];
  const gives = [...new Set(bank.map((d) => d.give))];
  // Each card given says its rate (table.js gives bank trades theirs, rates.js).
  const giveRates = (c) => [...new Set(bank.filter((d) => d.give === c && d.rate).map((d) => `${d.rate}:1`))].join(' or ');
  const turn = (g.turn ?? []).map((d) => actionButton(d, ` data-turn="${d.verb}"`));
  // Whatever has no place of its own above (a card not in the hand's list, a
  // prompt's choice when no dialog is due) is still offered, as a button.
  const inHand = new Set((me.progress ?? []).map((c) => (PROGRESS_NAMES[c] ?? '').replace(/ /g, '_')));
  const placed = new Set([...(g.turn ?? []), ...(g.bank ?? []), ...(g.improve ?? []), ...(g.alchemist ?? []), ...[...playable.values()].filter((d) => inHand.has(d.card))].map((d) => d.code));
  const others = Object.values(g).flat().filter((d) => !placed.has(d.code)).map((d) => actionButton(d));
  const alchemist = g.alchemist
    ? html`<form class="alchemist" data-alchemist-form><span>Alchemist: dice</span>
        <label>yellow <select name="yellow">${[1, 2, 3, 4, 5, 6].map((n) => html`<option>${n}</option>`)}</select></label>
        <label>red <select name="red">${[1, 2, 3, 4, 5, 6].map((n) => html`<option>${n}</option>`)}</select></label>
        <button type="submit">Play the alchemist</button></form>`
    : '';
  const offer = plan && canOffer(view, seat, plan, config);
  return html`
    <div class="decision" data-decision="${plan ? 'mine' : 'waiting'}">
      ${plan ? html`<strong>Your decision.</strong> ${plan.places.size ? 'Highlighted places on the board are yours to choose (dashed rings with a +).' : ''}` : html`Waiting for ${waitingFor}.`}
    </div>
    ${turn.length || others.length ? html`<div class="turn-buttons">${turn}${others}</div>` : ''}
    ${alchemist}
    ${handMarkup(me.hand)}
    <h3>Progress cards</h3>
    ${progress.length ? html`<ul class="progress-cards">${progress}</ul>` : html`<p class="hint">none</p>`}
    <h3>City improvements</h3>
    <table class="chart-table" data-improvements><tbody>${chart}</tbody></table>
    ${bank.length ? html`<h3>Bank and harbour trade</h3>
      <form class="bank-trade" data-bank-form>
        <label>Give <select name="give">${gives.map((c) => html`<option value="${c}">${c}${giveRates(c) ? ` (${giveRates(c)})` : ''}</option>`)}</select></label>
        <label>for <select name="take"></select></label>
        <button type="submit" data-bank-send>Trade with the bank</button>
      </form>` : ''}
    ${offer ? html`<details class="offer" data-offer-box><summary>Offer a trade to other players</summary>${offerBuilderMarkup(view, seat)}</details>` : ''}`;
}

// Cards in words with their count: "1 card", "3 cards".
const cardCount = (n) => `${n} card${n === 1 ? '' : 's'}`;

// What a prompt is about, in words: the top pending decision of the position
// (docs/PROTOCOL.md, "Pending decisions": its kind, and what its a and b hold).
// `discardTotal` is how many cards the seat was told to discard (the
// must-discard event), when the page saw it: the pending decision holds only
// how many are left.
export function promptTitle(view, seat, plan, seatName, { discardTotal = 0 } = {}) {
  const p = view.position;
  const g = plan.groups;
  if (g.trade?.some((d) => d.verb === 'accept' || d.verb === 'decline')) {
    const t = p.trade;
    return `${seatName(p.current_seat)} offers you ${cardsInWords(unpackCards(t.give))} for ${cardsInWords(unpackCards(t.want))}.`;
  }
  if (g.trade?.some((d) => d.verb === 'confirm' || d.verb === 'cancel')) {
    const t = p.trade;
    const answers = (t.answer ?? []).map((a, s) => (s === seat || !((t.addressees >> s) & 1) ? '' : `${seatName(s)} ${['has not answered', 'accepts', 'declines', `counters: gives ${cardsInWords(unpackCards(t.counter_give?.[s] ?? 0))} for ${cardsInWords(unpackCards(t.counter_want?.[s] ?? 0))}`][a] ?? a}`)).filter(Boolean);
    return `Your offer: ${cardsInWords(unpackCards(t.give))} for ${cardsInWords(unpackCards(t.want))}. ${answers.join('; ')}.`;
  }
  const pending = p.pending ?? [];
  const top = pending[pending.length - 1];
  const text = top && top.seat === seat ? pendingText(view, seat, top, seatName, discardTotal) : '';
  if (text) return text;
  const verbs = new Set(Object.values(g).flat().concat([...plan.places.values()].flat()).map((d) => d.verb));
  if (verbs.has('discard')) return `Discard a card: ${cardCount(view.hand_total[seat])} in hand.`;
  if (verbs.has('relocate_knight')) return 'Your knight was displaced: choose where it goes on the board.';
  if (verbs.has('pillage_city')) return 'The barbarians won: choose on the board the city they take.';
  if (verbs.has('discard_progress')) return 'Too many progress cards: discard one.';
  if (verbs.has('defender_deck')) return 'Defender of Catan: choose a deck to draw from.';
  if (verbs.has('place_metropolis')) return 'Choose on the board the city for your metropolis.';
  if (verbs.has('commit_knight')) return 'Commit knights against the barbarians, on the board, then Done.';
  return 'A decision for a progress card: choose one of the actions below.';
}

// What the card behind a pending decision of the seat's does, for its prompt
// ('' when the decision is no card's).
export function promptCardText(view, seat) {
  const pending = view.position.pending ?? [];
  const top = pending[pending.length - 1];
  const card = top && top.seat === seat ? pendingCard(top.kind) : '';
  return card ? `${card[0].toUpperCase()}${card.slice(1)}: ${cardText(card)}` : '';
}

// The prompt of one pending decision of the seat's, by its kind; '' for a kind
// without words of its own.
function pendingText(view, seat, top, seatName, discardTotal) {
  const p = view.position;
  const a = Number(top.a ?? 0);
  const b = Number(top.b ?? 0);
  const hand = view.hand_total?.[seat] ?? 0;
  switch (Number(top.kind)) {
    case 9: { // discard: a = cards still to discard
      const total = discardTotal >= a ? discardTotal : 0;
      const what = total ? `Discard ${cardCount(total)}: ${a} left to choose` : `Discard ${a} more card${a === 1 ? '' : 's'}`;
      return `${what} (one at a time; you hold ${cardCount(hand)}).`;
    }
    case 11: return 'Your knight was displaced: choose where it goes on the board.';
    case 12: return 'The barbarians won: choose on the board the city they take.';
    case 13: return 'Aqueduct: take one resource of your choice from the bank.';
    case 14: return `Choose on the board the city for your ${TRACK_NAMES[a] ? `${TRACK_NAMES[a]} ` : ''}metropolis.`;
    case 15: return 'Commit knights against the barbarians, on the board, then Done.';
    case 16: return 'Too many progress cards: put one back under its deck.';
    case 17: return 'Defender of Catan: choose the deck your progress card comes from.';
    case 20: return 'Your turn ends above the progress-card limit: put one back under its deck.';
    case 22: return `Road Building: place your free roads on the board (${a} left), or Stop.`;
    case 23: return `Smith: promote your knights for free on the board (${a} left), or Stop.`;
    case 24: return 'Diplomat: place your road again on the board, or Stop.';
    case 25: return `Deserter: ${seatName(a)} takes one of your knights: choose which, on the board.`;
    case 26: return `Deserter: place a knight of yours in place of the one removed (level ${a}) on the board, or Stop.`;
    case 27: return `Spy: take one of ${seatName(a)}'s progress cards.`;
    case 28: return `Master Merchant: take ${cardCount(b)} from ${seatName(a)}'s hand, one at a time.`;
    case 29: return `Wedding: give ${seatName(a)} ${cardCount(b)} of your choice, one at a time.`;
    case 30: {
      const done = Number(p.effects?.harbor_partners ?? 0);
      const met = [];
      for (let s = 0; s < p.num_seats; ++s) if (s !== seat && (done >> s) & 1) met.push(seatName(s));
      return 'Commercial Harbor: hold out one resource to each opponent, once each; one who has a commodity must give you one back, of their choosing. ' +
        `Choose an offer, or Stop.${met.length ? ` Exchanged already: ${met.join(', ')}.` : ''}`;
    }
    case 31: return `Commercial Harbor: ${seatName(a)} gives you 1 ${CARD_NAMES[b] ?? 'resource'}: choose a commodity to give back.`;
    case 32: return `Defender of Catan: take any card of the ${TRACK_NAMES[a] ? `${TRACK_NAMES[a]} ` : ''}deck.`;
    default: return '';
  }
}

// Why an offer made to the seat cannot be accepted: the cards it lacks ("you
// do not have 2 ore"), or '' when it holds them. The engine lists accept only
// when the seat holds the wanted cards; the prompt then shows a disabled
// Accept with this reason, rather than no Accept at all.
export function acceptBlocker(view, seat) {
  const t = view.position.trade;
  if (!t?.open) return '';
  const want = unpackCards(t.want);
  const hand = view.position.players[seat]?.hand ?? [];
  const lacking = want.map((n, c) => (n > (hand[c] ?? 0) ? `${n} ${CARD_NAMES[c]}` : '')).filter(Boolean);
  if (!lacking.length) return '';
  const list = lacking.length === 1 ? lacking[0] : `${lacking.slice(0, -1).join(', ')} and ${lacking[lacking.length - 1]}`;
  return `you do not have ${list}`;
}

// Prompts are due when the decision is not the turn's ordinary one: a
// pending decision of the position that is this seat's.
export function isPrompt(view, seat, plan) {
  const pending = view.position.pending ?? [];
  if (!pending.length) return false;
  const top = pending[pending.length - 1];
  if (top.seat !== seat) return false;
  const g = plan.groups;
  // Building placements of a card (road building, smith) stay on the board.
  const everything = Object.values(g).flat().concat([...plan.places.values()].flat());
  return !everything.every((d) => ['build_road', 'promote_knight', 'stop', 'move_robber'].includes(d.verb));
}
