// node --test web/test: the bank's rates the play page shows before a bank trade
// (web/app/js/play/rates.js, after engine/rules_board.cc ComputeBankRates):
// 4:1, 3:1 at a generic harbor, 2:1 at a harbor's own resource, for the
// commodities at trade level 3, for the merchant's resource and for the
// Merchant Fleet's card in the fleet's turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bankRate, bankTradeText, rateBankTrades } from '../app/js/play/rates.js';
import { planLegal } from '../app/js/play/legal.js';
import { TOPOLOGY } from '../app/js/board/topology.js';

// Harbor slots: 0 and 1 generic, 2 wool (2:1), the rest generic; hex 4 is pasture (wool), hex 7 mountains.
const config = { board: { harbor: [5, 5, 2, 5, 5, 5, 5, 5, 5], terrain: [0, 1, 2, 3, 2, 4, 0, 4, 1, 3, 2, 3, 4, 0, 1, 2, 3, 1, 5] }, options: {} };

function view({ seat = 0, current = 0, buildings = [], level = [0, 0, 0], merchant = null, fleet = 0 } = {}) {
  const building = new Array(54).fill(0);
  const owner = new Array(54).fill(-1);
  for (const v of buildings) {
    building[v] = 1;
    owner[v] = seat;
  }
  const players = [0, 1, 2, 3].map((s) => ({ hand: [4, 4, 4, 4, 4, 4, 4, 4], level: s === seat ? level : [0, 0, 0] }));
  return {
    position: {
      num_seats: 4, current_seat: current, building, building_owner: owner, players,
      merchant_hex: merchant?.hex ?? -1, merchant_owner: merchant?.seat ?? -1,
      effects: { fleet_cards: fleet, harbor_partners: 0 },
    },
  };
}
const slotNode = (k) => TOPOLOGY.harbors[k].nodes[0];

test('4:1 without a harbor, 3:1 at a generic one, 2:1 at a harbor of its own resource', () => {
  assert.equal(bankRate(view(), 0, config, 'brick', 'wool'), 4);
  assert.equal(bankRate(view({ buildings: [slotNode(0)] }), 0, config, 'brick', 'wool'), 3);
  const wool = view({ buildings: [slotNode(2)] });
  assert.equal(bankRate(wool, 0, config, 'wool', 'ore'), 2);
  assert.equal(bankRate(wool, 0, config, 'brick', 'ore'), 4);
  // Another seat's building at a harbor gives this seat nothing.
  assert.equal(bankRate(view({ seat: 1, buildings: [slotNode(2)] }), 0, config, 'wool', 'ore'), 4);
});

test('commodities 2:1 from trade level 3; the merchant; the Merchant Fleet in its turn', () => {
  assert.equal(bankRate(view({ level: [2, 0, 0] }), 0, config, 'cloth', 'ore'), 4);
  assert.equal(bankRate(view({ level: [3, 0, 0] }), 0, config, 'cloth', 'ore'), 2);
  assert.equal(bankRate(view({ level: [3, 0, 0] }), 0, config, 'brick', 'ore'), 4);
  assert.equal(bankRate(view({ merchant: { hex: 7, seat: 0 } }), 0, config, 'ore', 'wool'), 2);
  assert.equal(bankRate(view({ merchant: { hex: 7, seat: 1 } }), 0, config, 'ore', 'wool'), 4);
  assert.equal(bankRate(view({ fleet: 1 << 6 }), 0, config, 'coin', 'wool'), 2);
  assert.equal(bankRate(view({ fleet: 1 << 6, current: 1 }), 0, config, 'coin', 'wool'), 4);
});

test('D18: a 3:1 harbor under RESOURCE_ONLY takes 4 commodities for a commodity', () => {
  const d18 = { ...config, options: { harbor3_commodity_output: 1 } };
  const v = view({ buildings: [slotNode(0)] });
  assert.equal(bankRate(v, 0, d18, 'cloth', 'coin'), 4);
  assert.equal(bankRate(v, 0, d18, 'cloth', 'ore'), 3);
  assert.equal(bankRate(v, 0, config, 'cloth', 'coin'), 3);
});

test('the base game trades at harbors only', () => {
  const base = { ...config, options: { ruleset: 'RULESET_BASE' } };
  assert.equal(bankRate(view({ level: [3, 0, 0], merchant: { hex: 7, seat: 0 } }), 0, base, 'ore', 'wool'), 4);
  assert.equal(bankRate(view({ buildings: [slotNode(2)] }), 0, base, 'wool', 'ore'), 2);
});

test('every bank trade of a plan says its rate', () => {
  const plan = rateBankTrades(planLegal([{ code: '1', text: 'bank_trade brick wool' }, { code: '2', text: 'bank_trade wool ore' }, { code: '3', text: 'end_turn' }]),
    view({ buildings: [slotNode(2)] }), 0, config);
  assert.deepEqual(plan.groups.bank.map((d) => d.label), ['4 brick → 1 wool (4:1)', '2 wool → 1 ore (2:1)']);
  assert.equal(bankTradeText(3, 'grain', 'ore'), '3 grain → 1 ore (3:1)');
});
