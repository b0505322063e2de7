// node --test web/test: what a place on the board says it does before it is
// clicked, and what its preview shows (web/app/js/play/targets.js): the label
// with the cost, the yields of a settlement or a city from the hexes around
// its node, whom the robber could rob, and the ghost piece. Node 8 touches
// hexes 0, 1 and 4 (docs/BOARD.md numbering).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planLegal, secondPlaces } from '../app/js/play/legal.js';
import { targetInfo, previewMarkup, yieldText, occupied } from '../app/js/play/targets.js';
import { TOPOLOGY } from '../app/js/board/topology.js';

// hexes 0..18: mountains, pasture, forest, fields, hills, ... (terrain ids 4, 2, 1, 3, 0)
const TERRAIN = [4, 2, 1, 3, 0, 2, 0, 3, 1, 5, 1, 4, 1, 4, 3, 2, 0, 3, 2];
const TOKENS = [10, 2, 9, 12, 6, 4, 10, 9, 11, 0, 3, 8, 8, 3, 4, 5, 5, 6, 11];
const config = { num_seats: 4, board: { terrain: TERRAIN } };
const names = (s) => `${'ABCD'[s]} ${['ann', 'bea', 'cal', 'dan'][s]}`;

function view({ phase = 'PHASE_ACTION', pending = [], robber = 9, put = () => {} } = {}) {
  const position = {
    phase, pending, robber_hex: robber, merchant_hex: -1, token: [...TOKENS],
    building: new Array(54).fill(0), building_owner: new Array(54).fill(-1),
    knight_level: new Array(54).fill(0), knight_owner: new Array(54).fill(-1), knight_flags: new Array(54).fill(0),
  };
  put(position);
  return { viewer: 0, position };
}

const legal = (...texts) => texts.map((text, i) => ({ code: String(i + 1), text }));
function info(v, texts, key, opts) {
  const plan = planLegal(legal(...texts));
  return targetInfo(v, 0, config, key, plan.places.get(key), { nameOf: names, ...opts });
}

test('a settlement says what it costs and what it would yield, by number', () => {
  const i = info(view(), ['build_settlement n8', 'end_turn'], 'node:8');
  assert.equal(i.label, 'Build a settlement here (brick, lumber, wool, grain)');
  assert.equal(i.detail, 'yields: 10 ore, 2 wool, 6 brick');
  assert.deepEqual(i.ghost, { piece: 'settlement', seat: 0, kind: 'node', id: 8, yields: [0, 1, 4] });
  assert.equal(i.occupied, false);
});

test('in the setup building is free; a city yields two cards a hex', () => {
  const i = info(view({ phase: 'PHASE_SETUP' }), ['build_city n8'], 'node:8');
  assert.equal(i.label, 'Build a city here (free in the setup)');
  assert.equal(i.detail, 'yields: 10 ore + coin, 2 wool + cloth, 6 brick ×2');
  assert.equal(i.ghost.piece, 'city');
});

test('a city on one\'s settlement: the target is drawn around the piece', () => {
  const v = view({ robber: 4, put: (p) => { p.building[8] = 1; p.building_owner[8] = 0; } });
  const i = info(v, ['build_city n8'], 'node:8');
  assert.equal(i.label, 'Build a city here (2 grain, 3 ore)');
  assert.equal(i.occupied, true);
  assert.match(i.detail, /6 brick ×2 \(robber there now\)$/);
});

test('knights: promote, activate, and a move\'s destination', () => {
  const v = view({ put: (p) => { p.knight_level[8] = 1; p.knight_owner[8] = 0; p.knight_flags[8] = 1; } });
  const promote = info(v, ['promote_knight n8', 'activate_knight n8'], 'node:8');
  assert.equal(promote.label, '2 choices here: Promote this knight (wool, ore); Activate this knight (grain)');
  assert.deepEqual({ ...promote.ghost }, { piece: 'knight', seat: 0, level: 2, active: true, kind: 'node', id: 8, yields: [] });
  assert.equal(promote.occupied, true);
  // At a Smith's step the promotion is free: no cost is named.
  const smith = info(view({ pending: [{ kind: 20, seat: 0 }], put: (p) => { p.knight_level[8] = 2; } }), ['promote_knight n8'], 'node:8');
  assert.equal(smith.label, 'Promote this knight');
  const moves = secondPlaces(planLegal(legal('move_knight n8 n13')).places.get('node:8'));
  const to = targetInfo(v, 0, config, 'node:13', moves.get('node:13'), { role: 'to', nameOf: names });
  assert.equal(to.label, 'Move the knight from node 8 here');
  assert.equal(to.ghost.piece, 'knight');
  assert.equal(to.ghost.id, 13);
});

test('the robber: the hex with its number, and who could be robbed there', () => {
  const v = view();
  const two = info(v, ['move_robber h4 rob 1', 'move_robber h4 rob 3'], 'hex:4');
  assert.equal(two.label, 'Move the robber to hex 4 (hills 6)');
  assert.equal(two.detail, 'hex 4 (hills 6): you may rob B bea or D dan');
  assert.equal(two.ghost.piece, 'robber');
  assert.equal(two.occupied, true); // its number token
  const one = info(v, ['move_robber h7 rob 2'], 'hex:7');
  assert.equal(one.label, 'Move the robber to hex 7 (fields 9) and rob C cal');
  const nobody = info(v, ['move_robber h9'], 'hex:9');
  assert.equal(nobody.label, 'Move the robber to hex 9 (desert)');
  assert.equal(nobody.detail, 'hex 9 (desert): nobody to rob there');
});

test('a road says its cost; a place without a yield says so', () => {
  const road = info(view(), ['build_road e3'], 'edge:3');
  assert.equal(road.label, 'Build a road here (brick, lumber)');
  assert.equal(road.ghost.piece, 'road');
  assert.equal(road.occupied, false);
  const bare = view({ put: (p) => { p.token = new Array(19).fill(0); } });
  assert.equal(yieldText(bare, config, 8, false), 'yields: nothing (no numbered hex next to it)');
  assert.equal(occupied(bare, 'hex', 4), false);
});

test('the preview bar escapes its text and offers Confirm and Cancel', () => {
  const markup = String(previewMarkup({ kind: 'node', id: 8, label: 'Build <b>', detail: 'yields: 6 brick' }));
  assert.match(markup, /data-target-preview="node:8"/);
  assert.match(markup, /Build &lt;b&gt;/);
  assert.match(markup, /yields: 6 brick\./);
  assert.match(markup, /data-preview-confirm/);
  assert.match(markup, /data-preview-cancel/);
});

test('the base game: a city yields twice the resource on every hex (BG-3)', () => {
  const base = { ...config, options: { ruleset: 'RULESET_BASE' } };
  assert.equal(yieldText(view(), base, 8, true), 'yields: 10 ore ×2, 2 wool ×2, 6 brick ×2');
});

test('the Bishop names every other seat with a building at the hex (C-P1)', () => {
  const [a, b, c] = TOPOLOGY.hexNodes[0];
  const v = view({
    put: (p) => {
      for (const [node, owner] of [[a, 1], [b, 0], [c, 2]]) {
        p.building[node] = 1;
        p.building_owner[node] = owner;
      }
    },
  });
  const i = info(v, ['play bishop h0'], 'hex:0');
  assert.equal(i.detail, 'hex 0 (mountains 10): takes a card from B bea and C cal');
  const none = info(view(), ['play bishop h0'], 'hex:0');
  assert.equal(none.detail, 'hex 0 (mountains 10): nobody to take from there');
});
