#!/usr/bin/env node
// The engine addon's speed against the engine's own C++ loop (docs/PERFORMANCE.md,
// "The Node.js engine addon"). The games are the bench signature's
// (engine/signature.h): 4 seats, C&K default rules, RandomBoard(g), chance and
// seats' choices from two splitmix64 streams seeded from g. Four ways:
//
//   native   the C++ loop itself (engine.benchSignature), one call for all games
//   applyLegal  a JavaScript loop: legalCount(), applyLegal(i), applyChance(u): no
//            BigInt crosses, the fastest a JavaScript playout gets
//   codes    a JavaScript loop: legalActions() (a BigUint64Array), apply(code)
//            checked, sampleChance(u): what a search written against the codes does
//   codesInto   the same, the codes written into one array (legalActionsInto)
//
// All four play the same games, action for action (the counts are checked).
//
//   node botkits/node/bench/addon_speed.js [--games N] [--seed S] [--repeat R]
// with METROPOLIS_ENGINE_ADDON naming a release build's metropolis_engine.node.
'use strict';

const { parseArgs } = require('node:util');
const { load, findAddon } = require('../lib/engine');
const { FastSplitMix64, splitMixHash } = require('../lib/random');

function streams(g) {
  return [new FastSplitMix64(g), new FastSplitMix64(splitMixHash(~g & ((1n << 64n) - 1n)))];
}

// The apply methods return who acts next, so a step is one or two crossings.
function playApplyLegal(engine, games, seed) {
  const { CHANCE, TERMINAL } = engine;
  let actions = 0;
  for (let i = 0; i < games; ++i) {
    const g = BigInt(seed + i);
    const s = new engine.State({ board: g });
    const [chance, players] = streams(g);
    for (let p = s.currentPlayer; p !== TERMINAL; ++actions) {
      p = p === CHANCE ? s.applyChance(chance.uniform()) : s.applyLegal(players.nextMod(s.legalCount()));
    }
  }
  return actions;
}

function playCodes(engine, games, seed) {
  const { CHANCE, TERMINAL } = engine;
  let actions = 0;
  for (let i = 0; i < games; ++i) {
    const g = BigInt(seed + i);
    const s = new engine.State({ board: g });
    const [chance, players] = streams(g);
    for (let p = s.currentPlayer; p !== TERMINAL; ++actions) {
      if (p === CHANCE) {
        p = s.apply(s.sampleChance(chance.uniform()));
      } else {
        const legal = s.legalActions();
        p = s.apply(legal[players.nextMod(legal.length)]);
      }
    }
  }
  return actions;
}

// The same with the codes written into one array for all steps (legalActionsInto).
function playCodesInto(engine, games, seed) {
  const { CHANCE, TERMINAL } = engine;
  const legal = new BigUint64Array(1024);
  let actions = 0;
  for (let i = 0; i < games; ++i) {
    const g = BigInt(seed + i);
    const s = new engine.State({ board: g });
    const [chance, players] = streams(g);
    for (let p = s.currentPlayer; p !== TERMINAL; ++actions) {
      if (p === CHANCE) p = s.apply(s.sampleChance(chance.uniform()));
      else p = s.apply(legal[players.nextMod(s.legalActionsInto(legal))]);
    }
  }
  return actions;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function main() {
  const { values } = parseArgs({
    options: { games: { type: 'string', default: '200' }, seed: { type: 'string', default: '1' }, repeat: { type: 'string', default: '5' } },
  });
  const games = Number(values.games);
  const seed = Number(values.seed);
  const repeat = Number(values.repeat);
  const engine = load();
  console.log(`addon ${findAddon()}`);
  const expected = engine.benchSignature(games, seed).actions;
  const ways = {
    native: () => engine.benchSignature(games, seed).actions,
    applyLegal: () => playApplyLegal(engine, games, seed),
    codes: () => playCodes(engine, games, seed),
    codesInto: () => playCodesInto(engine, games, seed),
  };
  const times = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
  for (let r = 0; r < repeat; ++r) {
    // Interleaved, so that a slow minute of the machine hits all alike.
    for (const [name, run] of Object.entries(ways)) {
      const cpu = process.cpuUsage();
      const actions = run();
      const used = process.cpuUsage(cpu);
      if (actions !== expected) throw new Error(`${name} played ${actions} actions, the C++ loop ${expected}`);
      times[name].push((used.user + used.system) * 1000 / actions);  // ns of CPU per action
    }
  }
  const base = median(times.native);
  console.log(`${games} games, ${expected} actions each run, median of ${repeat} runs (CPU time per action)`);
  console.log('way          ns/action   actions/s    games/s   x native');
  for (const name of Object.keys(ways)) {
    const ns = median(times[name]);
    const perSecond = 1e9 / ns;
    console.log(`${name.padEnd(12)} ${ns.toFixed(1).padStart(9)} ${(perSecond / 1e6).toFixed(2).padStart(9)} M `
      + `${(perSecond * games / expected).toFixed(0).padStart(9)} ${(ns / base).toFixed(2).padStart(9)}`);
  }
}

main();
