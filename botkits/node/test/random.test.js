'use strict';
// node --test: splitmix64 as the engine draws it (engine/splitmix.h).

const test = require('node:test');
const assert = require('node:assert/strict');
const { SplitMix64, FastSplitMix64, splitMixHash, mixSeed } = require('../lib/random');

test('the stream is the engine\'s', () => {
  // SplitMixHash(0) and the first numbers of the stream at 1, as engine/splitmix.h computes them.
  assert.equal(splitMixHash(0n), 0xe220a8397b1dcdafn);
  const s = new SplitMix64(1n);
  assert.equal(s.next(), 0x910a2dec89025cc1n);
  assert.equal(s.next(), 0xbeeb8da1658eec67n);
  assert.equal(mixSeed(0n, 0n), splitMixHash(0n));
});

test('the fast stream draws the same numbers without BigInt', () => {
  for (const seed of [0n, 1n, 12345678901234567n, (1n << 64n) - 1n]) {
    const [a, b, c, d, e, f] = [new FastSplitMix64(seed), new SplitMix64(seed), new FastSplitMix64(seed),
      new SplitMix64(seed), new FastSplitMix64(seed), new SplitMix64(seed)];
    for (let i = 0; i < 5000; ++i) {
      const [h, l] = a.next();
      assert.equal((BigInt(h) << 32n) | BigInt(l), b.next());
      const n = 1 + (i % 57);
      assert.equal(c.nextMod(n), Number(d.next() % BigInt(n)));
      assert.equal(e.uniform(), f.uniform());
    }
    assert.equal(a.state, b.state);
  }
});
