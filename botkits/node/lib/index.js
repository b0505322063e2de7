'use strict';
// The Node.js bot kit (botkits/README.md, "The Node.js kit").

const { Client, Decision, answerDebug, retryableAfterDrop } = require('./client');
const { Protocol, Action, toCode } = require('./protocol');
const { loadApi, credentials, statusName, StatusError } = require('./api');
const { SeatLog } = require('./seat_log');
const { waitForSeat, compete, splitAddresses } = require('./matchmaker');
const { main, parseSettings } = require('./cli');
const { SplitMix64, splitMixHash, mixSeed } = require('./random');

module.exports = {
  Client, Decision, answerDebug, retryableAfterDrop,
  Protocol, Action, toCode,
  loadApi, credentials, statusName, StatusError,
  SeatLog,
  waitForSeat, compete, splitAddresses,
  main, parseSettings,
  SplitMix64, splitMixHash, mixSeed,
};
