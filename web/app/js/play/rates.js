// The bank's rate for a seat (RULES.md TRD-2): how many cards of a kind it
// gives for one card of another. A bank trade's action says only which cards
// ("bank_trade brick wool", given at the best rate the seat has), so the page
// works the rate out from the seat's view as engine/rules_board.cc
// (ComputeBankRates) does, to say it before the person commits: 4:1, 3:1 at a
// generic harbor, 2:1 for a harbor's own resource, the commodities at trade
// level 3 (IMP-6), the merchant's resource (C-T3) and the Merchant Fleet's card
// this turn (C-T4). The browser test checks a trade's cost against the hand.
import { CARD_NAMES } from '../names.js';
import { TOPOLOGY } from '../board/topology.js';

const NUM_RESOURCES = 5;
const GENERIC_HARBOR = 5;
const NUM_HARBOR_TYPES = 6;
const TRADE = 0; // the trade track
const RESOURCE_ONLY = 1; // harbor3_commodity_output (D18)

const cardIndex = (c) => (typeof c === 'number' ? c : CARD_NAMES.indexOf(c));
const isBase = (config) => {
  const r = config?.options?.ruleset;
  return r === 1 || r === 'RULESET_BASE';
};

// Harbor types (a resource 0..4, or 5 generic) where the seat has a building.
function harborsOf(p, seat, board) {
  const owned = new Set();
  TOPOLOGY.harbors.forEach((slot, k) => {
    if (slot.nodes.some((v) => p.building?.[v] > 0 && p.building_owner?.[v] === seat)) owned.add((board?.harbor?.[k] ?? GENERIC_HARBOR) % NUM_HARBOR_TYPES);
  });
  return owned;
}

// Cards given per card taken when `seat` trades `give` for `take` (card
// indices or names) with the bank, in the view `view` of a game of `config`.
export function bankRate(view, seat, config, give, take) {
  const p = view.position;
  const g = cardIndex(give);
  const t = cardIndex(take);
  const harbors = harborsOf(p, seat, config?.board);
  const generic = harbors.has(GENERIC_HARBOR);
  const two = new Set([...harbors].filter((h) => h < NUM_RESOURCES));
  if (!isBase(config)) {
    if ((p.players[seat].level?.[TRADE] ?? 0) >= 3) for (let c = NUM_RESOURCES; c < CARD_NAMES.length; ++c) two.add(c);
    const terrain = config?.board?.terrain?.[p.merchant_hex];
    if (p.merchant_owner === seat && p.merchant_hex >= 0 && terrain < NUM_RESOURCES) two.add(terrain);
    const fleet = Number(p.effects?.fleet_cards ?? 0);
    if (seat === p.current_seat) for (let c = 0; c < CARD_NAMES.length; ++c) if ((fleet >> c) & 1) two.add(c);
  }
  if (two.has(g)) return 2;
  if (!generic) return 4;
  // D18: under RESOURCE_ONLY a 3:1 harbor turns commodities into resources only.
  if (g >= NUM_RESOURCES && t >= NUM_RESOURCES && Number(config?.options?.harbor3_commodity_output ?? 0) === RESOURCE_ONLY) return 4;
  return 3;
}

// A bank trade in words, its rate written out: "4 brick → 1 wool (4:1)".
export function bankTradeText(rate, give, take) {
  return `${rate} ${give} → 1 ${take} (${rate}:1)`;
}

// Gives each bank trade of a plan (legal.js) its rate and a label that says it.
export function rateBankTrades(plan, view, seat, config) {
  for (const d of plan.groups.bank ?? []) {
    d.rate = bankRate(view, seat, config, d.give, d.take);
    d.label = bankTradeText(d.rate, d.give, d.take);
  }
  return plan;
}
