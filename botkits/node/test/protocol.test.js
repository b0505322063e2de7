'use strict';
// node --test: typed access from docs/protocol.json: every example the engine
// wrote into the reference formats back to the engine's own text.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Protocol } = require('../lib/protocol');

const reference = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'protocol.json'), 'utf8'));
const protocol = new Protocol(reference);

test('every example action of the reference formats as the engine wrote it', () => {
  const examples = [...reference.actions, ...reference.play_progress_parameters, ...reference.play_dev_parameters]
    .map((r) => r.example);
  assert.ok(examples.length > 70);
  for (const { text, code } of examples) assert.equal(protocol.format(code), text, code);
});

test('an action reads its type, name and bytes from its code', () => {
  const a = protocol.action(0x0d00000000120000n);
  assert.deepEqual([a.type, a.name, a.a, a.b, a.c, a.text], [13, 'build_settlement', 18, 0, 0, 'build_settlement n18']);
  assert.equal(protocol.action('936748722494242816').text, 'build_settlement n18');  // decimal, as fixed64 arrives
  assert.equal(protocol.action('0x1e00000000070300').text, 'move_robber h7 rob 2');
  assert.equal(protocol.action('0x1e00000000070000').text, 'move_robber h7');
  assert.equal(protocol.action('0x0100000000000000').text, 'dice - - ship');
  assert.equal(protocol.action('0x0200000000fe0000').text, 'steal ?');  // a card the seat may not see
  assert.equal(protocol.action('0x6300000000000000').name, null);
  assert.equal(protocol.action('0x6300000000000000').text, '?99');
  assert.deepEqual(protocol.action(reference.actions.find((x) => x.name === 'offer').example.code).trade,
    { give: [2, 0, 0, 0, 0, 0, 0, 0], want: [0, 0, 0, 0, 1, 0, 0, 0], to: [1, 3] });
  assert.equal(protocol.action(1n).trade, null);
  assert.throws(() => protocol.action('build_road'), TypeError);
});

test('pending kinds and event types come by name', () => {
  assert.equal(protocol.pending(9).name, 'discard');
  assert.equal(protocol.pending(9).role, 'decision');
  assert.equal(protocol.pending(99), null);
  assert.equal(protocol.eventType('EVENT_STOLE').name, 'stole');
  assert.equal(protocol.eventType(8).proto, 'EVENT_STOLE');
  const e = protocol.event({ type: 'EVENT_ACTION', seat: -2, other: 0, a: 0, b: 0, c: 0, action: { code: '72057594038190848' } });
  assert.equal(e.name, 'action');
  assert.equal(e.type, 0);
  assert.equal(e.action.text, 'dice 4 3 ship');
  for (const r of reference.events) assert.equal(protocol.event({ type: r.proto }).name, r.name);
});
