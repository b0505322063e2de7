// node --test web/test: a stored game's result in the games' tables
// (web/app/js/games/result.js): the winner named (never a bare "won" beside a
// player who came 4th), the turns when they are known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resultText } from '../app/js/games/result.js';

const players = [
  { seat: 0, name: 'ana', place: 4 },
  { seat: 1, name: 'bo', place: 1 },
  { seat: 2, name: 'cy', place: 2 },
  { seat: 3, name: 'di', place: 3 },
];
const won = { result: { reason: 'won', winner: 1, turns: 57, actions: 1830 }, players };

test('a won game names its winner', () => {
  assert.equal(resultText(won), 'won by bo · 57 turns · 1830 steps');
});

test('without the winner among the players, the place decides, else a bare "won"', () => {
  const noSeat = { ...won, result: { ...won.result, winner: 7 } };
  assert.equal(resultText(noSeat), 'won by bo · 57 turns · 1830 steps');
  assert.equal(resultText({ ...noSeat, players: [] }), 'won · 57 turns · 1830 steps');
});

test('a game stored before its turns were kept shows its steps only', () => {
  const old = { ...won, result: { ...won.result, turns: 0 } };
  assert.equal(resultText(old), 'won by bo · 1830 steps');
});

test('a resigned game names who resigned', () => {
  const resigned = { result: { reason: 'resigned', winner: null, resigned_seat: 0, turns: 20, actions: 600 }, players };
  assert.equal(resultText(resigned), 'ana resigned · 20 turns · 600 steps');
});

test('a game without a winner says why', () => {
  assert.equal(resultText({ result: { reason: 'length_cap', winner: null, turns: 400, actions: 20000 }, players }), 'no winner (length cap) · 400 turns · 20000 steps');
  assert.equal(resultText({ result: { reason: 'aborted', winner: null, turns: 3, actions: 90 }, players }), 'aborted · 3 turns · 90 steps');
});
