'use strict';
// The Node.js bot kit (botkits/README.md, "Node.js").

const { Client, Decision, makeDecision, toAnswer, answerDebug, retryableAfterDrop, RESIGN } = require('./client');
const { Protocol, Action, toCode } = require('./protocol');
const { loadApi, credentials, statusName, StatusError } = require('./api');
const { SeatLog } = require('./seat_log');
const { waitForSeat, compete, splitAddresses } = require('./matchmaker');
const { main, parseSettings } = require('./cli');
const { SplitMix64, FastSplitMix64, splitMixHash, mixSeed } = require('./random');
const engine = require('./engine');
const { runArena, arenaSeeds, wilson } = require('./arena');

module.exports = {
  Client, Decision, makeDecision, toAnswer, answerDebug, retryableAfterDrop, RESIGN,
  Protocol, Action, toCode,
  loadApi, credentials, statusName, StatusError,
  SeatLog,
  waitForSeat, compete, splitAddresses,
  main, parseSettings,
  SplitMix64, FastSplitMix64, splitMixHash, mixSeed,
  // The engine addon (loaded when first asked for) and the arena over it.
  engine, runArena, arenaSeeds, wilson,
};
