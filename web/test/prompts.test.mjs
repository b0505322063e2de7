// node --test web/test: what the play page's prompts say (web/app/js/play/panel.js),
// from decisions as the play stream sends them (fixtures/decisions.json): the
// discard's count, the progress cards' own words, and why an offer cannot be
// accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { planLegal } from '../app/js/play/legal.js';
import { promptTitle, acceptBlocker, isPrompt } from '../app/js/play/panel.js';

const FIXTURES = JSON.parse(readFileSync(new URL('fixtures/decisions.json', import.meta.url), 'utf8'));
const seatName = (s) => `${'ABCD'[s]} ${['ann', 'bea', 'cal', 'dan'][s]}`;

// The fixture's decision with the rest of its position filled in: four seats,
// an empty board, the fields the fixture gives laid over them.
function decisionOf(name) {
  const { seat, decision, events = [] } = FIXTURES[name];
  const given = decision.view.position;
  const players = [0, 1, 2, 3].map((s) => ({ hand: [0, 0, 0, 0, 0, 0, 0, 0], progress: [], level: [0, 0, 0], vp: 2, ...(given.players?.[s] ?? {}) }));
  const position = {
    num_seats: 4, merchant_hex: -1, merchant_owner: -1, building: new Array(54).fill(0), building_owner: new Array(54).fill(-1),
    effects: { crane_discounts: 0, cranes_played: 0, fleet_cards: 0, harbor_partners: 0 },
    trade: { open: false, addressees: 0, give: 0, want: 0, answer: [0, 0, 0, 0] },
    ...given,
    players,
  };
  const view = { ...decision.view, position };
  const discardTotal = events.find((e) => e.type === 'EVENT_MUST_DISCARD' && e.seat === seat)?.a ?? 0;
  return { seat, view, plan: planLegal(decision.legal), discardTotal };
}

const title = (name, extra = {}) => {
  const d = decisionOf(name);
  return promptTitle(d.view, d.seat, d.plan, seatName, { discardTotal: d.discardTotal, ...extra });
};

test('the discard prompt says how many cards, and how many are left to choose', () => {
  const d = decisionOf('discard');
  assert.ok(isPrompt(d.view, d.seat, d.plan));
  assert.equal(title('discard'), 'Discard 4 cards: 3 left to choose (one at a time; you hold 7 cards).');
  // Without the must-discard event (the page reloaded meanwhile) it counts what is left.
  assert.equal(title('discard', { discardTotal: 0 }), 'Discard 3 more cards (one at a time; you hold 7 cards).');
});

test('the Commercial Harbor prompt says what the card does and who was met already', () => {
  const d = decisionOf('commercial_harbor');
  assert.ok(isPrompt(d.view, d.seat, d.plan));
  const text = title('commercial_harbor');
  assert.match(text, /^Commercial Harbor: hold out one resource to each opponent/);
  assert.match(text, /must give you one back/);
  assert.match(text, /Exchanged already: D dan\.$/);
  assert.doesNotMatch(text, /A decision for a progress card/);
  // The opponent's side: what came, and what to do.
  assert.equal(title('harbor_return'), 'Commercial Harbor: A ann gives you 1 wool: choose a commodity to give back.');
});

test('an offer the seat cannot meet says which cards it lacks', () => {
  const d = decisionOf('offer_not_met');
  assert.equal(title('offer_not_met'), 'A ann offers you 1 brick for 2 ore.');
  assert.equal(acceptBlocker(d.view, d.seat), 'you do not have 2 ore');
  const met = decisionOf('offer_met');
  assert.equal(acceptBlocker(met.view, met.seat), '');
  // Two kinds lacking, in one sentence.
  met.view.position.trade.want = 0x20010; // 1 lumber, 2 ore
  met.view.position.players[2].hand = [0, 0, 1, 0, 1, 0, 0, 0];
  assert.equal(acceptBlocker(met.view, met.seat), 'you do not have 1 lumber and 2 ore');
});
