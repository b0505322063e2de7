// node --test web/test: the table's board-game parts: every card the app names
// says what it does (play/cards.js), the building-cost card of each ruleset
// (viewer/costs.js), dice drawn with their pips and faces (viewer/dice.js),
// and the tab title's "your turn" mark with the sound's kept choice
// (play/signal.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROGRESS_NAMES, DEV_NAMES } from '../app/js/names.js';
import { cardText, pendingCard, PROGRESS_TEXT, DEV_TEXT } from '../app/js/play/cards.js';
import { costRows, costCardMarkup } from '../app/js/viewer/costs.js';
import { diceMarkup, diceLabel, pipsOf } from '../app/js/viewer/dice.js';
import { markedTitle, soundWanted, setSoundWanted, TITLE_MARK } from '../app/js/play/signal.js';
import { Narrator } from '../app/js/viewer/sentences.js';
import { panelMarkup, promptCardText } from '../app/js/play/panel.js';
import { planLegal } from '../app/js/play/legal.js';

test('every progress card and development card the app names has its line', () => {
  // From the app's own tables: a card added there without a line fails here.
  for (const name of PROGRESS_NAMES) assert.ok(cardText(name).length > 10, `no line for the progress card ${name}`);
  for (const name of DEV_NAMES) assert.ok(cardText(name, { dev: true }).length > 10, `no line for the development card ${name}`);
  // ... and no line for a card the app does not know (a typo in a key).
  assert.deepEqual(Object.keys(PROGRESS_TEXT).sort(), [...PROGRESS_NAMES].sort());
  assert.deepEqual(Object.keys(DEV_TEXT).sort(), [...DEV_NAMES].sort());
  assert.equal(PROGRESS_NAMES.length, 25); // 24 kinds of RULES.md 1.7 (Road Building in one deck) and the Printer's twin Constitution
  // The engine's names (underscored) find the same lines.
  assert.equal(cardText('commercial_harbor'), PROGRESS_TEXT['commercial harbor']);
  assert.equal(cardText('year_of_plenty', { dev: true }), DEV_TEXT['year of plenty']);
  assert.equal(cardText('no such card'), '');
});

test('a card\'s decision names the card in its prompt; the hand and the log say what a card does', () => {
  assert.equal(pendingCard(27), 'spy');
  assert.equal(pendingCard(9), ''); // a discard is no card's
  const p = { pending: [{ kind: 28, seat: 1, a: 2, b: 2 }] };
  assert.equal(promptCardText({ position: p }, 1), `Master merchant: ${PROGRESS_TEXT['master merchant']}`);
  assert.equal(promptCardText({ position: p }, 0), '');
  // The hand panel: the card's line under its name, and the play button's tooltip.
  const players = [0, 1, 2, 3].map(() => ({ hand: [0, 0, 0, 0, 0, 0, 0, 0], progress: [], level: [0, 0, 0] }));
  players[0].progress = [PROGRESS_NAMES.indexOf('warlord'), PROGRESS_NAMES.indexOf('spy')];
  const view = { position: { num_seats: 4, current_seat: 0, phase: 'PHASE_ACTION', pending: [], offers_this_turn: 0, players }, hand_total: [0, 0, 0, 0] };
  const plan = planLegal([{ code: '1', text: 'play warlord' }, { code: '2', text: 'end_turn' }]);
  const panel = String(panelMarkup({ view, seat: 0, plan, config: {}, waitingFor: '' }));
  assert.match(panel, new RegExp(`title="${PROGRESS_TEXT.warlord}"`));
  assert.ok(panel.includes(`data-card-text>${PROGRESS_TEXT.spy.replace(/'/g, '&#39;')}</span>`), panel);
  const line = String(new Narrator([{ name: 'Ana' }]).action('play warlord', 0));
  assert.ok(line.includes(`title="${PROGRESS_TEXT.warlord}">warlord</span>`), line);
});

test('the cost card: C&K\'s pieces, knights and improvements, and the base game\'s development card', () => {
  const ck = Object.fromEntries(costRows(false));
  assert.equal(ck.Road, '1 brick + 1 lumber');
  assert.equal(ck['City wall'], '2 brick');
  assert.equal(ck['Knight: recruit (basic)'], '1 wool + 1 ore');
  assert.equal(ck['Knight: activate'], '1 grain');
  assert.equal(ck['Improvement: science, level n'], 'n paper (1 to 5)');
  assert.equal(ck['Improvement: politics, level n'], 'n coin (1 to 5)');
  assert.equal(ck['Improvement: trade, level n'], 'n cloth (1 to 5)');
  assert.ok(!('Development card' in ck));
  const base = Object.fromEntries(costRows(true));
  assert.equal(base['Development card'], '1 wool + 1 grain + 1 ore');
  assert.ok(!('City wall' in base));
  const markup = String(costCardMarkup(false));
  assert.match(markup, /^<details class="costs" data-costs="cities-and-knights">\s*<summary>Building costs<\/summary>/);
});

test('dice are drawn with their pips, the event die with its face, and said in words', () => {
  for (let v = 1; v <= 6; ++v) assert.equal(pipsOf(v).length, v);
  const m = String(diceMarkup({ dice_yellow: 4, dice_red: 6, dice_event: 3 }));
  assert.match(m, /role="img" aria-label="Dice: yellow die 4, red die 6: 10; event die: science gate"/);
  assert.equal((m.match(/<circle/g) ?? []).length, 10);
  assert.match(m, /data-die="event" data-face="3"/);
  assert.match(String(diceMarkup({ dice_yellow: 1, dice_red: 1, dice_event: 0 })), /class="ship"/);
  assert.doesNotMatch(String(diceMarkup({ dice_yellow: 2, dice_red: 3, dice_event: 0 }, { base: true })), /data-die="event"/);
  assert.equal(diceLabel(2, 3, 0, { base: true }), 'Dice: yellow die 2, red die 3: 5');
  assert.equal(diceMarkup({ dice_yellow: 0, dice_red: 0 }), '');
});

test('the title is marked while a decision waits, and the sound is off until chosen', () => {
  assert.equal(markedTitle('Game g1 · Metropolis', true), `${TITLE_MARK}Game g1 · Metropolis`);
  assert.equal(markedTitle(`${TITLE_MARK}Game g1 · Metropolis`, true), `${TITLE_MARK}Game g1 · Metropolis`);
  assert.equal(markedTitle(`${TITLE_MARK}Game g1 · Metropolis`, false), 'Game g1 · Metropolis');
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.equal(soundWanted(storage), false);
  setSoundWanted(true, storage);
  assert.equal(soundWanted(storage), true);
  setSoundWanted(false, storage);
  assert.equal(soundWanted(storage), false);
  assert.equal(soundWanted({ getItem: () => { throw new Error('denied'); } }), false);
});
