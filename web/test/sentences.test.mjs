// node --test web/test: the log in sentences (web/app/js/viewer/sentences.js):
// who acted at each step of whole games (fixtures/actions.json, made by the
// engine's own replay), the sentences of the actions and events of
// docs/protocol.json's examples, names escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Narrator, actorsOf, cardsInWords } from '../app/js/viewer/sentences.js';

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const { games } = read('./fixtures/actions.json');
const protocol = read('../../docs/protocol.json');
const players = [{ name: 'Ana' }, { name: 'Bo' }, { name: 'Cy' }, { name: 'Di' }];
// What a line says, as read on the page: tags dropped, entities read back.
const text = (m) => String(m).replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();

test('the actors of whole games: every seat named is the one that acted (trade answers too), and only other answers go unnamed', () => {
  for (const g of games) {
    const start = g.actions.find(([s]) => s >= 0)[0];
    const actors = actorsOf(g.actions.map(([, t]) => t), g.seats, start);
    let named = 0;
    g.actions.forEach(([seat, t], i) => {
      if (actors[i] === null) {
        assert.match(t, /^(discard|relocate_knight|pillage_city|aqueduct|place_metropolis|commit_|discard_progress|defender_deck|remove_knight|take_progress|give_card)/, `step ${i + 1} ${t}`);
      } else {
        assert.equal(actors[i], seat, `step ${i + 1}: ${t}`);
        ++named;
      }
    });
    assert.ok(named / g.actions.length > 0.8, `only ${named} of ${g.actions.length} steps named`);
  }
});

test('a start player chosen by the dice starts the setup', () => {
  const actors = actorsOf(['chance_start_player 2', 'build_settlement n1', 'build_road e1', 'build_settlement n9', 'build_road e9', 'build_settlement n20', 'build_road e20',
    'build_city n30', 'build_road e30', 'build_city n40', 'build_road e40', 'build_city n44', 'build_road e44', 'roll', 'dice 1 2 ship', 'end_turn', 'roll'], 3, 0);
  assert.deepEqual(actors, [-2, 2, 2, 0, 0, 1, 1, 1, 1, 0, 0, 2, 2, 2, -2, 2, 0]);
});

test('the common actions in sentences, with names', () => {
  const n = new Narrator(players);
  const say = (t, s) => text(n.action(t, s));
  assert.equal(say('build_road e17', 0), 'A Ana builds a road');
  assert.equal(say('build_settlement n12', 1), 'B Bo builds a settlement');
  assert.equal(say('build_city n12', 1), 'B Bo builds a city');
  assert.equal(say('roll', 0), 'A Ana rolls the dice');
  assert.equal(say('dice 5 3 ship', -2), 'A Ana rolls 8 (red 3, yellow 5; event die: ship)');
  assert.equal(say('dice 2 2 politics', -2), 'the dice show 4 (red 2, yellow 2; event die: politics gate)');
  assert.equal(say('play alchemist 4 3', 2), 'C Cy plays alchemist');
  assert.equal(say('dice - - trade', -2), 'the dice show 7 (red 3, yellow 4, fixed by the Alchemist; event die: trade gate)');
  assert.equal(say('move_robber h7 rob 2', 1), 'B Bo moves the robber and robs C Cy');
  assert.equal(say('offer give 2brick 1wool want 1ore to 1,3', 0), 'A Ana offers 2 brick and 1 wool for 1 ore to B Bo, D Di');
  assert.equal(say('confirm 3', 0), 'A Ana trades with D Di');
  assert.equal(say('bank_trade brick wool', 0), 'A Ana trades brick with the bank for 1 wool');
  assert.equal(say('buy_improvement politics', 3), 'D Di improves politics');
  assert.equal(say('discard wool', null), 'someone discards 1 wool');
  assert.equal(say('play resource_monopoly ore', 0), 'A Ana plays resource monopoly');
  assert.equal(say('end_turn', 0), 'A Ana ends the turn');
});

test('every action example of the protocol reads as a sentence, the rare ones keep the engine\'s words', () => {
  const n = new Narrator(players);
  for (const a of protocol.actions) {
    const said = text(n.action(a.example.text, a.chance ? -2 : 1));
    assert.ok(said.length > 0, a.name);
    // A sentence never shows the engine's underscored names or raw places.
    if (!said.startsWith('B Bo: ')) assert.doesNotMatch(said, /\b[a-z]+_[a-z_]+\b|\b[neh]\d+\b/, `${a.example.text} → ${said}`);
  }
});

test('the common events in sentences', () => {
  const n = new Narrator(players);
  const say = (e) => text(n.event(e));
  assert.equal(say({ type: 'EVENT_BARBARIAN_ATTACK', a: 5, b: 3, c: 0 }), 'the barbarians attack: 5 against 3; Catan loses');
  assert.equal(say({ type: 'EVENT_STOLE', seat: 1, other: 0, b: 254 }), 'B Bo robs A Ana (1 card)');
  assert.equal(say({ type: 'EVENT_STOLE', seat: 1, other: 0, b: 4 }), 'B Bo robs A Ana (ore)');
  assert.equal(say({ type: 'EVENT_PRODUCED', seat: 2, a: 2, b: 3 }), 'C Cy receives 2 grain');
  assert.equal(say({ type: 'EVENT_TRADE_EXECUTED', seat: 0, other: 2, action: { text: 'offer give 2brick want 1ore to 2' } }), 'A Ana trades 2 brick for 1 ore with C Cy');
  assert.equal(say({ type: 'EVENT_ACTION', seat: 3, action: { text: 'build_wall n4' } }), 'D Di builds a city wall');
  for (const e of protocol.events) {
    const said = n.event({ type: e.proto, seat: 1, other: 2, a: 1, b: 1, c: 1, action: { text: 'roll' } });
    if (said !== null) assert.ok(text(said).length > 0, e.proto);
  }
});

// The rows of the phrase tables the tests above do not read: each says, word
// for word, what the switch they replaced said.
test('the rarer actions and events in sentences, word for word', () => {
  const n = new Narrator(players);
  const actions = [
    ['recruit_knight n20', 'B Bo recruits a knight'],
    ['activate_knight n20', 'B Bo activates a knight'],
    ['promote_knight n20', 'B Bo promotes a knight'],
    ['move_knight n3 n9', 'B Bo moves a knight'],
    ['displace_knight n3 n9', 'B Bo displaces a knight'],
    ['chase_robber n20', 'B Bo chases the robber away with a knight'],
    ['relocate_knight n21', 'B Bo moves the displaced knight'],
    ['move_robber h7', 'B Bo moves the robber'],
    ['discard ?', 'B Bo discards a card'],
    ['pillage_city n12', 'B Bo loses a city to the barbarians'],
    ['aqueduct grain', 'B Bo takes 1 grain (aqueduct)'],
    ['place_metropolis n12', 'B Bo places a metropolis'],
    ['commit_knight n20', 'B Bo sends a knight against the barbarians'],
    ['commit_done', 'B Bo sends no more knights'],
    ['discard_progress smith', 'B Bo puts a progress card back'],
    ['offer give 1grain want 2brick', 'B Bo offers 1 grain for 2 brick'],
    ['accept', 'B Bo accepts the offer'],
    ['decline', 'B Bo declines the offer'],
    ['counter give 1grain want 2brick', 'B Bo counters: 1 grain for 2 brick'],
    ['cancel', 'B Bo withdraws the offer'],
    ['buy_dev', 'B Bo buys a development card'],
    ['play_dev year_of_plenty', 'B Bo plays year of plenty'],
    ['take_card coin', 'B Bo takes 1 coin'],
    ['take_card ?', 'B Bo takes a card'],
    ['give_card paper', 'B Bo gives 1 paper'],
    ['take_progress warlord', 'B Bo takes a progress card'],
    ['constructor', 'B Bo: constructor'], // an unknown verb, even one every object has
  ];
  for (const [action, said] of actions) assert.equal(text(n.action(action, 1)), said);
  const events = [
    [{ type: 'EVENT_PRODUCED', seat: 2, a: 3, b: 254 }, 'C Cy receives 3 cards'],
    [{ type: 'EVENT_BARBARIAN_SHARE', seat: 0, a: 4 }, 'A Ana defends with strength 4'],
    [{ type: 'EVENT_DEFENDER', seat: 1 }, 'B Bo is a Defender of Catan (1 VP)'],
    [{ type: 'EVENT_CITY_PILLAGED', seat: 3 }, 'D Di loses a city to the barbarians'],
    [{ type: 'EVENT_MUST_DISCARD', seat: 2, a: 4 }, 'C Cy must discard 4 cards'],
    [{ type: 'EVENT_PROGRESS_DRAWN', seat: 1, a: 2, b: 254 }, 'B Bo draws a progress card from the science deck'],
    [{ type: 'EVENT_PROGRESS_DRAWN', seat: 1, a: 0, b: 22 }, 'B Bo draws merchant fleet from the trade deck'],
    [{ type: 'EVENT_VICTORY_CARD_REVEALED', seat: 0, b: 11 }, 'A Ana reveals constitution (1 VP)'],
    [{ type: 'EVENT_PAID', seat: 0, a: 2, b: 6 }, 'A Ana pays 2 coin'],
    [{ type: 'EVENT_CARD_GIVEN', seat: 0, other: 3, a: 1, b: 254 }, 'A Ana gives a card to D Di'],
    [{ type: 'EVENT_KNIGHT_REMOVED', seat: 2 }, 'C Cy loses a knight'],
    [{ type: 'EVENT_KNIGHT_DESERTED', seat: 2 }, 'C Cy loses a knight'],
    [{ type: 'EVENT_MERCHANT_PLACED', seat: 3 }, 'D Di places the merchant (1 VP)'],
    [{ type: 'EVENT_PROGRESS_TAKEN', seat: 1, other: 0, b: 17 }, 'B Bo takes warlord from A Ana'],
    [{ type: 'EVENT_PROGRESS_TAKEN', seat: 1, other: 0, b: 254 }, 'B Bo takes a progress card from A Ana'],
  ];
  for (const [e, said] of events) assert.equal(text(n.event(e)), said, e.type);
  assert.equal(n.event({ type: 'toString', seat: 1 }), null);
});

test('names are escaped', () => {
  const n = new Narrator([{ name: '<img src=x onerror=alert(1)>' }, { name: 'Bo & "Co"' }]);
  const m = String(n.action('move_robber h7 rob 1', 0));
  assert.ok(!m.includes('<img'), m);
  assert.match(m, /&lt;img src=x onerror=alert\(1\)&gt;/);
  assert.match(m, /Bo &amp; &quot;Co&quot;/);
  assert.match(String(n.event({ type: 'EVENT_STOLE', seat: 0, other: 1, b: 254 })), /&lt;img/);
});

test('cards in words', () => {
  assert.equal(cardsInWords(['2brick']), '2 brick');
  assert.equal(cardsInWords(['1lumber', '1wool', '2ore']), '1 lumber, 1 wool and 2 ore');
  assert.equal(cardsInWords(['-']), 'nothing');
});
