// node --test web/test: what the app keeps in localStorage (web/app/js/storage.js):
// kept and read back, forgotten, and a storage that refuses (private modes
// throw on writing; a blocked storage throws when merely read) never throws
// out of the helper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { read, write } from '../app/js/storage.js';

const memory = () => {
  const kept = new Map();
  return { kept, getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, String(v)), removeItem: (k) => kept.delete(k) };
};

test('a value is kept, read back and forgotten', () => {
  const storage = memory();
  assert.equal(read('k', { storage }), null);
  assert.equal(write('k', 'v', { storage }), true);
  assert.equal(storage.kept.get('k'), 'v');
  assert.equal(read('k', { storage, refused: 'x' }), 'v', 'refused is not the value of a key never kept');
  assert.equal(write('k', null, { storage }), true);
  assert.equal(storage.kept.has('k'), false);
  assert.equal(read('k', { storage, refused: 'x' }), null);
});

test('a storage that refuses gives the fallback and keeps nothing, without throwing', () => {
  const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); }, removeItem: () => { throw new Error('denied'); } };
  assert.equal(read('k', { storage: refusing }), null);
  assert.equal(read('k', { storage: refusing, refused: '1' }), '1');
  assert.equal(write('k', 'v', { storage: refusing }), false);
  assert.equal(write('k', null, { storage: refusing }), false);
});

test('without a storage given, localStorage is read inside the guard: absent or blocked, it refuses', () => {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  try {
    delete globalThis.localStorage;
    assert.equal(read('k', { refused: '1' }), '1');
    assert.equal(write('k', 'v'), false);
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, get() { throw new Error('SecurityError: storage is blocked'); } });
    assert.equal(read('k'), null);
    assert.equal(read('k', { refused: '1' }), '1');
    assert.equal(write('k', 'v'), false);
    const storage = memory();
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: storage });
    assert.equal(write('k', 'v'), true);
    assert.equal(read('k'), 'v');
  } finally {
    if (saved) Object.defineProperty(globalThis, 'localStorage', saved);
    else delete globalThis.localStorage;
  }
});
