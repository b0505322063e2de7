// node --test web/test: the ladder the lobby and the leaderboards open on
// (web/app/js/ladders/choice.js): the address's, the queued one, the
// remembered one, then the main ladder — never merely the first id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseLadder, rememberedLadder, rememberLadder, REMEMBERED_KEY } from '../app/js/ladders/choice.js';
import { soundWanted, setSoundWanted } from '../app/js/play/signal.js';

// As GET /api/v1/ladders lists them: by id.
const LADDERS = [
  { id: 'casual', seats: 3 },
  { id: 'duo', seats: 4 },
  { id: 'open', seats: 4 },
  { id: 'trio-open', seats: 3 },
];
const id = (l) => l?.id ?? null;

test('no ladder, no choice', () => {
  assert.equal(chooseLadder([]), null);
  assert.equal(chooseLadder(undefined, { asked: 'open' }), null);
});

test('the main ladder: four seats and "open" in its id, not the first id', () => {
  assert.equal(id(chooseLadder(LADDERS)), 'open');
  // "open" alone is not enough: a three-seat open ladder is not the game as published.
  assert.equal(id(chooseLadder(LADDERS.filter((l) => l.id !== 'open'))), 'duo');
  assert.equal(id(chooseLadder([{ id: 'a', seats: 3 }, { id: 'b', seats: 3 }])), 'a');
  assert.equal(id(chooseLadder([{ id: 'a', seats: 3 }, { id: 'OpenCup', seats: 4 }])), 'OpenCup');
});

test('the address first, then the queue, then the remembered choice', () => {
  const all = { asked: 'casual', queued: 'duo', remembered: 'trio-open' };
  assert.equal(id(chooseLadder(LADDERS, all)), 'casual');
  assert.equal(id(chooseLadder(LADDERS, { ...all, asked: '' })), 'duo');
  assert.equal(id(chooseLadder(LADDERS, { ...all, asked: '', queued: '' })), 'trio-open');
});

test('a name that is no ladder (any more) is passed over', () => {
  assert.equal(id(chooseLadder(LADDERS, { asked: 'gone', queued: 'closed', remembered: 'duo' })), 'duo');
  assert.equal(id(chooseLadder(LADDERS, { asked: 'gone', queued: null, remembered: undefined })), 'open');
});

test('the remembered choice survives a storage that refuses', () => {
  const kept = new Map();
  const storage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v) };
  assert.equal(rememberedLadder(storage), '');
  rememberLadder('duo', storage);
  assert.equal(kept.get(REMEMBERED_KEY), 'duo');
  assert.equal(rememberedLadder(storage), 'duo');
  rememberLadder('', storage);
  assert.equal(rememberedLadder(storage), 'duo', 'an empty choice forgets nothing');
  const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
  assert.equal(rememberedLadder(refusing), '');
  assert.doesNotThrow(() => rememberLadder('open', refusing));
  assert.equal(rememberedLadder(null), '');
});

test('a browser whose localStorage cannot even be read remembers nothing and does not throw', () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  Object.defineProperty(globalThis, 'localStorage', { configurable: true, get() { throw new Error('SecurityError: storage is blocked'); } });
  try {
    assert.equal(rememberedLadder(), '');
    rememberLadder('duo');
    assert.equal(soundWanted(), false);
    setSoundWanted(true);
  } finally {
    if (saved) Object.defineProperty(globalThis, 'localStorage', saved);
    else delete globalThis.localStorage;
  }
});
