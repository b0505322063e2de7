'use strict';
// The arena of `metropolis-engine arena` (docs/BOTS.md, "The arena") with a
// JavaScript bot as the candidate, played in this process through the engine
// addon. Same games as the command line for the same seed: sets of one game
// per seat share a random board and the chance streams, the candidate rotates
// through the seats, opponent k sits k seats after it, and every seat's random
// stream is seeded as tools/engine/arena.cc seeds it. So a candidate that
// decides as a built-in bot does, with the stream it is given, plays exactly
// the command line's games (the addon's test checks it).
//
// The candidate is a decide function of the kit, given what it would get from
// a host: each decision is the seat's view serialized as the host's Decision
// (lib/protocol, ViewToProto) and read back by the kit as on the network, with
// decision.engineView read from those bytes (ViewFromProto). An action the
// engine refuses ends that game as an error, as the arena's PlayGame does.

const { loadApi } = require('./api');
const { Protocol } = require('./protocol');
const { makeDecision, toAnswer } = require('./client');
const { SplitMix64, splitMixHash } = require('./random');
const engineModule = require('./engine');

const M64 = (1n << 64n) - 1n;

// The seeds of game `index` of an arena run with `seed` (tools/engine/rng.h,
// tools/engine/arena.cc): the set's board and chance seeds and each seat's stream.
function arenaSeeds(seed, index, seats) {
  const set = BigInt(Math.floor(index / seats));
  const setSeed = splitMixHash((BigInt(seed) + set) & M64);
  const gameSeed = splitMixHash((BigInt(seed) + BigInt(index)) & M64);
  const players = Array.from({ length: seats }, (_, seat) =>
    splitMixHash(gameSeed ^ ((0xd1b54a32d192ed03n * BigInt(seat + 1)) & M64)));
  return { board: setSeed, chance: setSeed ^ 0xc4a2ce5eedn, players };
}

// Wilson score interval for `wins` of `n` at z (bots/match.h).
function wilson(wins, n, z = 1.96) {
  if (n <= 0) return [0, 1];
  const p = wins / n;
  const z2 = z * z;
  const center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

// Plays game `index`: the candidate (makeDecide({rng, seat, index}) gives its
// decide function) against `opponents` (built-in bot specs, one per other seat).
async function playGame({ engine, api, protocol, config, seed, index, makeDecide, opponents }) {
  const seats = config.seats ?? 4;
  const rotation = index % seats;
  const seeds = arenaSeeds(seed, index, seats);
  const players = Array.from({ length: seats }, (_, seat) => {
    const after = (seat - rotation + seats) % seats;
    return after === 0 ? null : opponents[after - 1];
  });
  const match = new engine.Match({
    config: { ...config, seats, board: seeds.board }, chanceSeed: seeds.chance, players, seeds: seeds.players,
  });
  const rng = new SplitMix64(seeds.players[rotation]);
  const decide = await makeDecide({ rng, seat: rotation, index, notes: false });
  const deserialize = api.definition['metropolis.v1.GameHost'].Play.responseDeserialize;
  const welcomeBytes = match.welcomeBytes(rotation);
  const { config: welcomeConfig } = deserialize(welcomeBytes).welcome;
  let decisions = 0;
  let error = '';
  try {
    while (match.advance() === rotation) {
      const view = match.view();
      const bytes = view.decisionBytes(match.step);
      const update = deserialize(bytes);
      update.raw = bytes;
      const decision = makeDecision(protocol, update, { seat: rotation, gameId: `arena-${index}`, config: welcomeConfig, welcomeBytes });
      const answer = toAnswer(protocol, await decide(decision), decision);
      match.apply(answer.wire.text && answer.wire.code === '0' ? answer.wire.text : BigInt(answer.wire.code));
      ++decisions;
    }
  } catch (e) {
    error = e.message;
  }
  return { index, seat: rotation, decisions, error, ...match.outcome() };
}

// Runs `games` games (rounded up to whole sets) and sums them up as the
// command line does. Options: makeDecide, opponents (one spec, or one per
// opponent seat), games, seed (default 1), config ({seats, ruleset, options}),
// concurrency (games in flight; a candidate that thinks on the worker pool
// then overlaps the others' turns), onGame (called with each game's result).
async function runArena({ makeDecide, opponents, games = 100, seed = 1, config = {}, concurrency = 1, onGame } = {}) {
  const engine = engineModule.load();
  const api = loadApi();
  const protocol = Protocol.load();
  const seats = config.seats ?? 4;
  const specs = Array.isArray(opponents) ? opponents : [opponents];
  const opponentSpecs = specs.length === 1 ? Array(seats - 1).fill(specs[0]) : specs;
  if (opponentSpecs.length !== seats - 1) throw new Error(`opponents: ${specs.length} for ${seats - 1} opponent seats`);
  const total = Math.ceil(games / seats) * seats;
  const results = new Array(total);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const index = next++;
      results[index] = await playGame({
        engine, api, protocol, config: { ...config, seats }, seed, index, makeDecide, opponents: opponentSpecs,
      });
      onGame?.(results[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));

  const s = {
    games: 0, wins: 0, errors: 0, capped: 0, firstError: '', candidateVp: 0, opponentVp: 0, actions: 0, turns: 0,
    decisions: 0, offers: 0, trades: 0, seatGames: Array(seats).fill(0), seatWins: Array(seats).fill(0),
  };
  for (const g of results) {
    if (g.error) {
      if (s.errors++ === 0) s.firstError = g.error;
      continue;
    }
    ++s.games;
    ++s.seatGames[g.seat];
    if (g.winner === g.seat) {
      ++s.wins;
      ++s.seatWins[g.seat];
    }
    if (g.winner === -1) ++s.capped;
    s.candidateVp += g.vp[g.seat];
    s.opponentVp += g.vp.reduce((a, b) => a + b, 0) - g.vp[g.seat];
    s.actions += g.actions;
    s.turns += g.turns;
    s.decisions += g.decisions;
    s.offers += g.offers[g.seat];
    s.trades += g.trades[g.seat];
  }
  const n = Math.max(1, s.games);
  const share = s.wins / n;
  const fair = 1 / seats;
  return {
    ...s,
    winShare: share,
    wilson95: wilson(s.wins, s.games),
    z: s.games > 0 ? (share - fair) / Math.sqrt((fair * (1 - fair)) / s.games) : 0,
    candidateMeanVp: s.candidateVp / n,
    opponentMeanVp: s.opponentVp / (n * (seats - 1)),
    meanActions: s.actions / n,
    meanTurns: s.turns / n,
    games: s.games,
    results,
  };
}

module.exports = { runArena, playGame, arenaSeeds, wilson };
