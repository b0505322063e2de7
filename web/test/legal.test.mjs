// node --test web/test: the legal-action reader (web/app/js/play/legal.js) on
// the engine's own action texts, taken from its golden playthroughs
// (engine/tests/testdata/golden), so a change of the notation shows up here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describeAction, planLegal, secondPlaces, offerText, counterText, unpackCards, cardsInWords } from '../app/js/play/legal.js';

const GOLDEN = new URL('../../engine/tests/testdata/golden/', import.meta.url);

// Every action a golden playthrough chose or listed as legal. Listed actions are
// grouped by the engine ("build_settlement n0 n1 n2": a shared head, then each
// action's last word); only one-argument verbs are ungrouped here, where the
// head is certain.
function goldenTexts() {
  const texts = new Set();
  for (const name of readdirSync(GOLDEN)) {
    const lines = readFileSync(new URL(name, GOLDEN), 'utf8').split('\n');
    let inLegal = false;
    for (const line of lines) {
      if (line.startsWith('chosen: ')) texts.add(line.slice(8).trim());
      if (line.startsWith('legal: ')) inLegal = true;
      else if (!line.startsWith('  ')) inLegal = false;
      else if (inLegal) {
        const [verb, ...rest] = line.trim().split(/\s+/);
        if (['build_settlement', 'build_city', 'build_road', 'build_wall', 'recruit_knight', 'activate_knight',
          'promote_knight', 'chase_robber', 'pillage_city', 'discard', 'buy_improvement', 'commit_knight'].includes(verb)) {
          for (const arg of rest) texts.add(`${verb} ${arg}`);
        }
      }
    }
  }
  return [...texts];
}
const TEXTS = goldenTexts();

test('the golden playthroughs give many kinds of action', () => {
  const verbs = new Set(TEXTS.map((t) => t.split(' ')[0]));
  for (const v of ['build_settlement', 'build_road', 'build_city', 'move_robber', 'recruit_knight', 'activate_knight',
    'promote_knight', 'bank_trade', 'discard', 'offer', 'accept', 'decline', 'confirm', 'cancel', 'play', 'roll', 'end_turn', 'pillage_city']) {
    assert.ok(verbs.has(v), `no ${v} in the golden playthroughs`);
  }
});

test('every placement lands on a place of the board with its number', () => {
  let placed = 0;
  for (const text of TEXTS) {
    const d = describeAction(text);
    const [verb, arg] = text.split(' ');
    if (['build_settlement', 'build_city', 'build_wall', 'recruit_knight', 'activate_knight', 'promote_knight', 'chase_robber', 'pillage_city', 'commit_knight'].includes(verb)) {
      assert.deepEqual(d.at, { kind: 'node', id: Number(arg.slice(1)) }, text);
      assert.equal(d.group, 'board', text);
      ++placed;
    } else if (verb === 'build_road') {
      assert.deepEqual(d.at, { kind: 'edge', id: Number(arg.slice(1)) }, text);
      ++placed;
    } else if (verb === 'move_robber') {
      assert.deepEqual(d.at, { kind: 'hex', id: Number(arg.slice(1)) }, text);
      ++placed;
    } else if (['roll', 'end_turn', 'bank_trade', 'discard', 'accept', 'decline', 'confirm', 'cancel', 'buy_improvement', 'offer', 'dice', 'steal', 'draw'].includes(verb)) {
      assert.equal(d.at, null, `${text} is not a place on the board`);
    }
    assert.ok(d.label.length > 0, text);
  }
  assert.ok(placed > 200, `only ${placed} placements read`);
});

test('the robber names its victim by seat letter', () => {
  assert.equal(describeAction('move_robber h7 rob 2').label, 'move the robber here and rob seat C');
  assert.equal(describeAction('move_robber h7').label, 'move the robber here');
});

test('progress cards played on a place, and the two-step ones', () => {
  assert.deepEqual(describeAction('play bishop h11').at, { kind: 'hex', id: 11 });
  assert.deepEqual(describeAction('play merchant h2').at, { kind: 'hex', id: 2 });
  assert.deepEqual(describeAction('play saboteur n25').at, { kind: 'node', id: 25 });
  const inv = describeAction('play inventor h3 h10');
  assert.deepEqual([inv.at, inv.to], [{ kind: 'hex', id: 3 }, { kind: 'hex', id: 10 }]);
  const mv = describeAction('move_knight n3 n9');
  assert.deepEqual([mv.at, mv.to], [{ kind: 'node', id: 3 }, { kind: 'node', id: 9 }]);
  assert.deepEqual(describeAction('place_knight n5 2').at, { kind: 'node', id: 5 });
  // A card without a place is a control.
  assert.equal(describeAction('play irrigation').group, 'progress');
  const alchemist = describeAction('play alchemist 3 4');
  assert.equal(alchemist.group, 'alchemist');
  assert.deepEqual([alchemist.yellow, alchemist.red], [3, 4]);
});

test('controls fall in their groups', () => {
  assert.equal(describeAction('roll').group, 'turn');
  assert.equal(describeAction('end_turn').group, 'turn');
  const bank = describeAction('bank_trade brick ore');
  assert.deepEqual([bank.group, bank.give, bank.take], ['bank', 'brick', 'ore']);
  assert.equal(describeAction('discard wool').group, 'prompt');
  assert.equal(describeAction('confirm 2').seat, 2);
  assert.equal(describeAction('buy_improvement politics').track, 'politics');
});

test('planLegal puts actions sharing a place together', () => {
  const plan = planLegal([
    { code: '1', text: 'move_robber h7 rob 1' },
    { code: '2', text: 'move_robber h7 rob 2' },
    { code: '3', text: 'move_robber h8' },
    { code: '4', text: 'move_knight n3 n9' },
    { code: '5', text: 'move_knight n3 n10' },
    { code: '6', text: 'promote_knight n3' },
    { code: '7', text: 'end_turn' },
  ]);
  assert.equal(plan.places.get('hex:7').length, 2);
  assert.equal(plan.places.get('hex:8')[0].code, '3');
  assert.equal(plan.places.get('node:3').length, 3);
  assert.deepEqual([...secondPlaces(plan.places.get('node:3')).keys()], ['node:9', 'node:10']);
  assert.equal(plan.groups.turn[0].code, '7');
});

test('offers are written as the engine reads them', () => {
  assert.equal(offerText([1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0, 0, 0], [3, 1]), 'offer give 1brick want 1ore to 1,3');
  assert.equal(offerText([2, 0, 1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [2]), 'offer give 2brick 1wool want - to 2');
  assert.equal(counterText([0, 0, 0, 0, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0]), 'counter give 1ore want 1brick');
  // The golden offers read back the same through the builder.
  for (const text of TEXTS.filter((t) => t.startsWith('offer '))) {
    const m = text.match(/^offer give (.*) want (.*) to (.*)$/);
    const counts = (side) => {
      const c = new Array(8).fill(0);
      if (side !== '-') for (const part of side.split(' ')) c[['brick', 'lumber', 'wool', 'grain', 'ore', 'cloth', 'coin', 'paper'].indexOf(part.replace(/^\d+/, ''))] = Number(part.match(/^\d+/)[0]);
      return c;
    };
    assert.equal(offerText(counts(m[1]), counts(m[2]), m[3].split(',').map(Number)), text);
  }
});

test('a position trade unpacks 4 bits per card', () => {
  assert.deepEqual(unpackCards(0x10002), [2, 0, 0, 0, 1, 0, 0, 0]);
  assert.equal(cardsInWords([2, 0, 0, 0, 1, 0, 0, 0]), '2 brick, 1 ore');
});
