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

// The same stream on two 32-bit halves, without BigInt: for playouts in
// JavaScript, where BigInt arithmetic would cost more than the engine's step.
class FastSplitMix64 {
  constructor(seed) {
    const s = BigInt.asUintN(64, BigInt(seed));
    this.hi = Number(s >> 32n) >>> 0;
    this.lo = Number(s & 0xffffffffn) >>> 0;
    this.zh = 0;  // the last number drawn, high and low halves
    this.zl = 0;
  }

  // (zh, zl) = (ah, al) * (bh, bl) mod 2^64: al * bl in 16-bit pieces (exact
  // in doubles), the cross terms' low halves by Math.imul. No allocation: a
  // playout draws once per action.
  mul(ah, al, bh, bl) {
    const a0 = al & 0xffff;
    const a1 = al >>> 16;
    const b0 = bl & 0xffff;
    const b1 = bl >>> 16;
    const p00 = a0 * b0;
    const p01 = a0 * b1;
    const p10 = a1 * b0;
    const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
    this.zl = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
    this.zh = (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
  }

  // Draws the next number into (zh, zl).
  draw() {
    const lo = (this.lo + 0x7f4a7c15) >>> 0;
    this.hi = (this.hi + 0x9e3779b9 + (lo < this.lo ? 1 : 0)) >>> 0;
    this.lo = lo;
    let h = this.hi;
    let l = this.lo;
    this.mul(h ^ (h >>> 30), (l ^ ((l >>> 30) | (h << 2))) >>> 0, 0xbf58476d, 0x1ce4e5b9);
    h = this.zh;
    l = this.zl;
    this.mul(h ^ (h >>> 27), (l ^ ((l >>> 27) | (h << 5))) >>> 0, 0x94d049bb, 0x133111eb);
    h = this.zh;
    l = this.zl;
    this.zh = (h ^ (h >>> 31)) >>> 0;
    this.zl = (l ^ ((l >>> 31) | (h << 1))) >>> 0;
  }

  // The next number as [hi, lo].
  next() {
    this.draw();
    return [this.zh, this.zl];
  }

  // Uniform in [0, 1): the top 53 bits, as the engine's Uniform().
  uniform() {
    this.draw();
    return (this.zh * 2097152 + (this.zl >>> 11)) / 9007199254740992;
  }

  // next() mod n, for 0 < n < 2^21: what the bench signature's seats draw.
  nextMod(n) {
    this.draw();
    return ((this.zh % n) * 4294967296 + this.zl) % n;
  }

  // The state as a BigInt, for the addon's streams.
  get state() { return (BigInt(this.hi) << 32n) | BigInt(this.lo); }
}

// An unpredictable 64-bit seed.
function randomSeed() {
  return require('node:crypto').randomBytes(8).readBigUInt64LE();
}

module.exports = { SplitMix64, FastSplitMix64, splitMixHash, splitMixStep, mixSeed, randomSeed };
