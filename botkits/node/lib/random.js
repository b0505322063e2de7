'use strict';
// splitmix64, the project's one portable random stream (engine/splitmix.h):
// the same seed gives the same numbers here as in the engine, the bots and the
// tools, so a seed names the same choices everywhere. BigInt arithmetic.

const M64 = (1n << 64n) - 1n;

// The next number of the stream at state `state` (a BigInt): [value, next state].
function splitMixStep(state) {
  const s = (state + 0x9e3779b97f4a7c15n) & M64;
  let z = s;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return [z ^ (z >> 31n), s];
}

// The first number of the stream at state x: a strong mix of x (SplitMixHash).
const splitMixHash = (x) => splitMixStep(BigInt.asUintN(64, BigInt(x)))[0];

// A seed derived from another and a salt (lib/chance/splitmix.h, MixSeed).
const mixSeed = (seed, salt) => splitMixHash((BigInt(seed) ^ ((BigInt(salt) * 0xd1b54a32d192ed03n) & M64)) & M64);

class SplitMix64 {
  constructor(seed) { this.state = BigInt.asUintN(64, BigInt(seed)); }

  next() {
    const [value, state] = splitMixStep(this.state);
    this.state = state;
    return value;
  }

  // Uniform in [0, 1): the top 53 bits scaled by 2^-53, as the engine's Uniform().
  uniform() { return Number(this.next() >> 11n) / 2 ** 53; }

  // Uniform in [0, n) for n > 0 by the multiply on the top 32 bits (RandomBelow).
  below(n) { return Number(((this.next() >> 32n) * BigInt(n)) >> 32n); }
}

// An unpredictable 64-bit seed.
function randomSeed() {
  return require('node:crypto').randomBytes(8).readBigUInt64LE();
}

module.exports = { SplitMix64, splitMixHash, splitMixStep, mixSeed, randomSeed };
