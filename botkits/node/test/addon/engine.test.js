'use strict';
// node --test: the engine addon agrees with the engine, by numbers:
//   * the bench signature (engine/signature.h) over the checked-in games, from
//     the addon's C++ loop and from the same games played move by move in
//     JavaScript through the addon's API;
//   * perft counts from engine/tests/testdata/perft.txt, counted in JavaScript;
//   * every legal action's text, as the engine writes it and as the kit's
//     protocol.json reader formats it;
//   * views through the host's bytes and back; built-in bots.
// METROPOLIS_ENGINE_ADDON names the addon (ctest sets it).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { load } = require('../../lib/engine');
const { Protocol } = require('../../lib/protocol');
const { loadApi } = require('../../lib/api');
const { SplitMix64, splitMixHash } = require('../../lib/random');

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const engine = load();
const protocol = Protocol.load();
const M64 = (1n << 64n) - 1n;

// FNV-1a over 64-bit values byte by byte, little-endian (engine/signature.cc).
class Fnv1a {
  constructor() { this.hash = 0xcbf29ce484222325n; }
  add(v) {
    let x = BigInt.asUintN(64, BigInt(v));
    for (let i = 0; i < 8; ++i) {
      this.hash ^= x & 0xffn;
      this.hash = (this.hash * 0x100000001b3n) & M64;
      x >>= 8n;
    }
  }
}

// The bench signature's games played in JavaScript through the addon: chance
// sampled with u from one splitmix stream, a seat's choice (x mod n) of its
// sorted legal actions from another, every action checked as it is applied.
function signatureInJs(games, seed, ruleset = 'cities_and_knights') {
  const hash = new Fnv1a();
  let actions = 0;
  for (let i = 0; i < games; ++i) {
    const g = BigInt(seed) + BigInt(i);
    const state = new engine.State({ ruleset, board: g });
    const chance = new SplitMix64(g);
    const players = new SplitMix64(splitMixHash(~g & M64));
    while (!state.isTerminal) {
      let code;
      if (state.isChanceNode) {
        code = state.sampleChance(chance.uniform());
      } else {
        const legal = state.legalActions();
        code = legal[Number(players.next() % BigInt(legal.length))];
      }
      hash.add(code);
      state.apply(code);
      ++actions;
    }
    for (const r of state.returns()) hash.add(BigInt(Math.trunc(r)));
    hash.add(BigInt(state.winner));
    hash.add(BigInt(state.actionCount));
    for (let p = 0; p < state.numSeats; ++p) hash.add(BigInt(state.vp(p)));
  }
  return { signature: hash.hash, actions };
}

// "games=100 seed=1 signature=0x..." lines, by ruleset.
function checkedInSignatures() {
  const lines = fs.readFileSync(path.join(ROOT, 'engine', 'tests', 'testdata', 'signature.txt'), 'utf8').trim().split('\n');
  return lines.map((line) => {
    const m = line.match(/^(?:ruleset=(\w+) )?games=(\d+) seed=(\d+) signature=(0x[0-9a-f]+)$/);
    return { ruleset: m[1] ?? 'cities_and_knights', games: Number(m[2]), seed: Number(m[3]), signature: BigInt(m[4]) };
  });
}

test('the addon\'s bench signature is the checked-in one', () => {
  for (const { ruleset, games, seed, signature } of checkedInSignatures()) {
    const native = engine.benchSignature(games, seed, ruleset);
    assert.equal(native.signature, signature, ruleset);
    assert.equal(native.games, games);
  }
});

test('the bench signature\'s games played in JavaScript through the addon are the same games', () => {
  for (const { ruleset, seed } of checkedInSignatures()) {
    const games = 12;
    const native = engine.benchSignature(games, seed, ruleset);
    const js = signatureInJs(games, seed, ruleset);
    assert.equal(js.signature, native.signature, ruleset);
    assert.equal(js.actions, native.actions, ruleset);
  }
});

test('the fast path of a playout (applyLegal, applyChance) plays the same games', () => {
  const g = 5n;
  const slow = new engine.State({ board: g });
  const fast = new engine.State({ board: g });
  const [c1, p1] = [new SplitMix64(g), new SplitMix64(splitMixHash(~g & M64))];
  const [c2, p2] = [new SplitMix64(g), new SplitMix64(splitMixHash(~g & M64))];
  const into = new BigUint64Array(1024);
  while (!slow.isTerminal) {
    let next;
    if (slow.isChanceNode) {
      slow.apply(slow.sampleChance(c1.uniform()));
      next = fast.applyChance(c2.uniform());
    } else {
      const legal = slow.legalActions();
      assert.equal(fast.legalActionsInto(into), legal.length);
      assert.deepEqual(into.subarray(0, legal.length), legal);
      slow.apply(legal[Number(p1.next() % BigInt(legal.length))]);
      next = fast.applyLegal(Number(p2.next() % BigInt(fast.legalCount())));
    }
    assert.equal(next, fast.currentPlayer, 'the apply methods return who acts next');
  }
  assert.throws(() => new engine.State().legalActionsInto(new BigUint64Array(1)), TypeError);
  assert.ok(fast.isTerminal);
  assert.ok(fast.equals(slow));
  // And the same game played to its end in C++.
  const native = new engine.State({ board: g });
  assert.equal(native.playRandom(g, splitMixHash(~g & M64)), slow.actionCount);
  assert.ok(native.equals(slow));
});

// perft.txt's positions: {name, make(), lines: [{mode, seed, depth, count}]}.
function perftPositions() {
  const text = fs.readFileSync(path.join(ROOT, 'engine', 'tests', 'testdata', 'perft.txt'), 'utf8');
  const positions = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [key, ...rest] = line.split(' ');
    const value = rest.join(' ');
    const p = positions.at(-1);
    if (key === 'position') positions.push({ name: value, seats: 4, options: '', actions: [], notation: null, lines: [] });
    else if (key === 'seats') p.seats = Number(value);
    else if (key === 'options') p.options = value;
    else if (key === 'actions') p.actions = value.split(';').map((a) => a.trim()).filter(Boolean);
    else if (key === 'notation') p.notation = value;
    else if (key === 'perft') {
      const [mode, seed, depth, count] = rest;
      p.lines.push({ mode, seed: BigInt(seed), depth: Number(depth), count: Number(count) });
    }
  }
  for (const p of positions) {
    p.make = () => {
      if (p.notation) return engine.State.fromNotation(p.notation);
      const ruleset = /ruleset=base/.test(p.options) ? 'base' : 'cities_and_knights';
      const s = new engine.State({ ruleset, seats: p.seats, options: p.options.replace(/ruleset=\w+/, '') });
      for (const a of p.actions) s.apply(a);
      return s;
    };
  }
  return positions;
}

// engine/perft.h's count, in JavaScript over the addon.
function perft(s, depth, mode, seed) {
  if (depth === 0) return 1;
  if (s.isTerminal) return 0;
  if (s.isChanceNode) {
    if (mode === 'fixed') {
      const u = Number(splitMixHash(seed ^ splitMixHash(BigInt(s.actionCount))) >> 11n) / 2 ** 53;
      const next = s.clone();
      next.apply(s.sampleChance(u));
      return perft(next, depth, mode, seed);
    }
    let total = 0;
    for (const o of s.chanceOutcomes()) {
      if (depth === 1) {
        ++total;
        continue;
      }
      const next = s.clone();
      next.apply(o.code);
      total += perft(next, depth - 1, mode, seed);
    }
    return total;
  }
  const legal = s.legalActions();
  if (depth === 1) return legal.length;
  let total = 0;
  for (const code of legal) {
    const next = s.clone();
    next.apply(code);
    total += perft(next, depth - 1, mode, seed);
  }
  return total;
}

test('perft counts through the addon are the checked-in ones', () => {
  let checked = 0;
  for (const p of perftPositions()) {
    for (const l of p.lines) {
      if (l.count > 25000) continue;  // the large counts are the engine tests' to make
      assert.equal(perft(p.make(), l.depth, l.mode, l.seed), l.count, `${p.name}: perft ${l.mode} ${l.seed} ${l.depth}`);
      ++checked;
    }
  }
  assert.ok(checked >= 25, `${checked} counts checked`);
});

test('every legal action\'s text is the engine\'s, and the kit formats it the same', () => {
  let seen = 0;
  for (const g of [1n, 2n, 3n]) {
    const s = new engine.State({ board: g, ruleset: g === 3n ? 'base' : 'cities_and_knights' });
    const chance = new SplitMix64(g);
    while (!s.isTerminal) {
      if (s.isChanceNode) {
        const code = s.sampleChance(chance.uniform());
        assert.equal(protocol.format(code), engine.actionText(code));
        s.apply(code);
        continue;
      }
      const codes = s.legalActions();
      const texts = s.legalTexts();
      assert.equal(codes.length, texts.length);
      codes.forEach((code, i) => {
        assert.equal(protocol.format(code), texts[i]);
        assert.equal(engine.parseAction(texts[i]), code);
      });
      seen += codes.length;
      s.applyLegal(Number(chance.next() % BigInt(codes.length)));
    }
  }
  assert.ok(seen > 5000, `${seen} legal actions compared`);
});

test('an illegal action is refused with the rule, and changes nothing', () => {
  const s = new engine.State();
  const before = s.toNotation();
  assert.throws(() => s.apply('build_city n0'), (e) => e.code === 'ILLEGAL_ACTION' && /^build_city n0: /.test(e.message));
  assert.throws(() => s.apply('no_such_action'), TypeError);
  assert.throws(() => s.apply(0xff00000000000000n), /names no action/);
  assert.equal(s.toNotation(), before);
  assert.throws(() => s.legalActions.call(s.view(0)), TypeError);
  assert.throws(() => new engine.State({ seats: 5 }), /seats/);
  assert.throws(() => new engine.State({ options: 'nosuch=1' }), /nosuch/);
  assert.equal(s.validate(), '');
});

test('a view goes through the host\'s bytes and back unchanged, and the kit reads them', () => {
  const api = loadApi();
  const deserialize = api.definition['metropolis.v1.GameHost'].Play.responseDeserialize;
  const s = new engine.State({ board: 9n });
  const chance = new SplitMix64(9n);
  let checked = 0;
  while (!s.isTerminal && s.actionCount < 900) {
    if (s.isChanceNode) {
      s.applyChance(chance.uniform());
      continue;
    }
    if (s.actionCount % 7 === 0) {
      const seat = s.currentPlayer;
      const view = s.view(seat);
      const bytes = view.decisionBytes(s.actionCount);
      const welcome = s.welcomeBytes(seat);
      assert.ok(engine.View.fromDecision(bytes, welcome).equals(view));
      const update = deserialize(bytes);
      assert.equal(update.msg, 'decision');
      assert.deepEqual(update.decision.view.legal.map(BigInt), [...view.legalActions()]);
      assert.equal(deserialize(welcome).welcome.seat, seat);
      ++checked;
    }
    s.applyLegal(Number(chance.next() % BigInt(s.legalCount())));
  }
  assert.ok(checked > 20);
  assert.throws(() => engine.View.fromDecision(Buffer.from([1, 2, 3]), Buffer.alloc(0)), TypeError);
});

test('a built-in bot chooses as its stream says, on the calling thread or the worker pool, around refused actions', async () => {
  const view = new engine.State().view(0);
  const bot = new engine.Bot('heuristic');
  assert.equal(bot.name, 'heuristic');
  const a = bot.choose(view, 42n);
  const b = await bot.chooseAsync(view, 42n);
  assert.deepEqual(a, b);
  assert.ok([...view.legalActions()].includes(a.action));
  const legal = [...view.legalActions()];
  const random = new engine.Bot('random');
  for (let i = 0n; i < 20n; ++i) assert.equal(random.choose(view, i, legal.slice(1)).action, legal[0]);
  // Nothing left: the last refused action, which the kit does not send again.
  assert.equal(random.choose(view, 1n, legal).action, legal.at(-1));
  assert.throws(() => new engine.Bot('nosuch'), TypeError);
  const busy = bot.chooseAsync(view, 1n);
  assert.throws(() => bot.choose(view, 1n), /another thread/);
  await busy;
  assert.ok(engine.botKinds().includes('search'));
});

test('a sampled state is consistent with its view and can be searched', () => {
  const s = new engine.State({ board: 4n });
  const chance = new SplitMix64(4n);
  while (s.actionCount < 300) {
    if (s.isChanceNode) s.applyChance(chance.uniform());
    else s.applyLegal(Number(chance.next() % BigInt(s.legalCount())));
  }
  while (s.isChanceNode) s.applyChance(chance.uniform());
  const seat = s.currentPlayer;
  const view = s.view(seat);
  const sample = view.sampleState(7n);
  assert.equal(sample.validate(), '');
  assert.ok(sample.view(seat).equals(view));
  assert.deepEqual(sample.hand(seat), s.hand(seat));
  assert.ok(Number.isFinite(sample.evaluate(seat)));
  const v = sample.normalizedValue(seat);
  assert.ok(v >= 0 && v <= 1);
});
