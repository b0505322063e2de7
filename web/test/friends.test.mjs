// node --test web/test: a friends' table (web/app/js/friends/model.js): what
// the table's page offers whom at each state, the rules in plain words, the
// people at the table, the one automatic opening of a seated game, the lobby's
// form as the request, and the table a table's game belongs to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  tableOfGame, durationWords, settingsWords, stateWords, tablePeople, tableActions, gameToOpen,
  tableRequest, tableRequestProblem, formFieldOf, TABLE_DEFAULTS,
} from '../app/js/friends/model.js';

// A table as GET /api/v1/tables/{id} sends it, open, with ana (17, its creator) and bo (18).
function table(extra = {}) {
  return {
    id: 'aB3dE5gH7jK9',
    state: 'open',
    round: 0,
    settings: { ...TABLE_DEFAULTS },
    creator: 17,
    members: [{ id: 17, name: 'ana' }, { id: 18, name: 'bo' }],
    seating: [],
    game_id: '',
    game_over: false,
    you: { member: false, creator: false, seat: null },
    expires_in_ms: 7_200_000,
    ...extra,
  };
}
const kinds = (actions) => actions.map((a) => a.kind);
const CREATOR = { member: true, creator: true, seat: null };
const MEMBER = { member: true, creator: false, seat: null };

test('a table\'s game names its table: the id between "table-" and the last "-"', () => {
  assert.equal(tableOfGame('table-aB3dE5gH7jK9-1'), 'aB3dE5gH7jK9');
  assert.equal(tableOfGame('table-aB3dE5gH7jK9-12'), 'aB3dE5gH7jK9');
  assert.equal(tableOfGame('table-a-b-2'), 'a-b', 'the last "-" ends the id');
  assert.equal(tableOfGame('practice-17-3'), null);
  assert.equal(tableOfGame('g-1'), null);
  assert.equal(tableOfGame('table-'), null);
  assert.equal(tableOfGame(undefined), null);
});

test('an open table: Join for a signed-in stranger, sign in or up for the signed out, Leave for a member, Start for its creator', () => {
  const signedOut = tableActions(table(), false);
  assert.deepEqual(kinds(signedOut), ['signin', 'signup']);
  assert.equal(signedOut[0].href, '/signin?next=/tables/aB3dE5gH7jK9');
  assert.equal(signedOut[0].label, 'Sign in to join');
  assert.deepEqual(kinds(tableActions(table(), true)), ['join']);
  assert.deepEqual(kinds(tableActions(table({ you: MEMBER }), true)), ['leave']);
  const creator = tableActions(table({ you: CREATOR }), true);
  assert.deepEqual(kinds(creator), ['start'], 'the creator cannot leave');
  assert.equal(creator[0].hint, '2 empty seats go to the heuristic bot (a sound beginner).');
  const three = tableActions(table({ you: CREATOR, settings: { ...TABLE_DEFAULTS, seats: 3, bot: 'search' } }), true);
  assert.equal(three[0].hint, '1 empty seat goes to the search bot (the strongest).');
  const members = [17, 18, 19, 20].map((id) => ({ id, name: `p${id}` }));
  assert.equal(tableActions(table({ you: CREATOR, members }), true)[0].hint, 'Every seat is taken.');
  // A full table offers a stranger no Join, and says why.
  const full = tableActions(table({ members }), true);
  assert.deepEqual(kinds(full), ['full']);
  assert.match(full[0].label, /4 of 4 seats/);
  // The session counts, not the table's "you": a page signed out offers no Leave.
  assert.deepEqual(kinds(tableActions(table({ you: MEMBER }), false)), ['signin', 'signup']);
});

test('a table starting says so, and offers its players to start it again', () => {
  for (const you of [CREATOR, MEMBER]) {
    assert.deepEqual(kinds(tableActions(table({ state: 'starting', round: 1, you }), true)), ['starting', 'start']);
  }
  assert.deepEqual(tableActions(table({ state: 'starting', round: 1, you: { member: false, creator: false, seat: null } }), true), [
    { kind: 'starting', label: 'Starting…' },
  ]);
  assert.deepEqual(kinds(tableActions(table({ state: 'starting', round: 1, you: MEMBER }), false)), ['starting'], 'signed out');
});

test('a table playing: the seated open their seat, everyone else watches; after the game the members may ask for a rematch', () => {
  const playing = { state: 'playing', round: 1, game_id: 'table-aB3dE5gH7jK9-1', seating: [{ seat: 0, name: 'bo', bot: false }] };
  const seated = tableActions(table({ ...playing, you: { member: true, creator: false, seat: 2 } }), true);
  assert.deepEqual(seated, [{ kind: 'open', label: 'Open your seat', href: '/play/table-aB3dE5gH7jK9-1' }]);
  assert.deepEqual(kinds(tableActions(table({ ...playing, you: { member: true, creator: true, seat: 0 } }), true)), ['open'], 'seat 0 is a seat');
  const stranger = tableActions(table(playing), true);
  assert.deepEqual(stranger, [{ kind: 'watch', label: 'Watch the game', href: '/live/table-aB3dE5gH7jK9-1' }]);
  assert.deepEqual(kinds(tableActions(table(playing), false)), ['watch']);
  const over = { ...playing, game_over: true };
  assert.deepEqual(kinds(tableActions(table({ ...over, you: { member: true, creator: false, seat: 1 } }), true)), ['rematch', 'replay']);
  assert.deepEqual(kinds(tableActions(table({ ...over, you: CREATOR }), true)), ['rematch', 'replay']);
  assert.deepEqual(kinds(tableActions(table(over), true)), ['replay'], 'no rematch for who is not a member');
  assert.equal(tableActions(table(over), false)[0].href, '/games/table-aB3dE5gH7jK9-1');
});

test('the seated person\'s game opens once: not when over, not for spectators, not again once opened', () => {
  const playing = table({ state: 'playing', round: 1, game_id: 'table-aB3dE5gH7jK9-1', you: { member: true, creator: false, seat: 1 } });
  assert.equal(gameToOpen(playing), 'table-aB3dE5gH7jK9-1');
  assert.equal(gameToOpen(playing, new Set(['table-aB3dE5gH7jK9-1'])), null, 'back at the table: not sent off again');
  assert.equal(gameToOpen({ ...playing, game_id: 'table-aB3dE5gH7jK9-2', round: 2 }, new Set(['table-aB3dE5gH7jK9-1'])), 'table-aB3dE5gH7jK9-2', 'the rematch opens');
  assert.equal(gameToOpen({ ...playing, game_over: true }), null);
  assert.equal(gameToOpen({ ...playing, you: { member: false, creator: false, seat: null } }), null);
  assert.equal(gameToOpen({ ...playing, state: 'starting' }), null);
  assert.equal(gameToOpen({ ...playing, game_id: '' }), null);
  assert.equal(gameToOpen(table({ you: CREATOR })), null);
});

test('the rules in plain words', () => {
  const words = Object.fromEntries(settingsWords(TABLE_DEFAULTS).map((l) => [l.key, l.text]));
  assert.deepEqual(words, {
    ruleset: 'Catan: Cities & Knights',
    seats: '4 seats; a seat nobody takes is played by the heuristic bot (a sound beginner)',
    clock: '1 min for each decision, then a time bank of 5 min for the whole game',
    ladder: 'Not rated: a friendly game',
    spectators: 'Spectators watch as it is played',
  });
  const other = Object.fromEntries(
    settingsWords({ ruleset: 'base', options: 'vp=12', seats: 3, bot: 'random', decision_ms: 90_000, time_bank_ms: 0, ladder: 'casual', spectator_delay_ms: 120_000 }).map((l) => [l.key, l.text]),
  );
  assert.equal(other.ruleset, 'Catan, the base game (options: vp=12)');
  assert.equal(other.seats, '3 seats; a seat nobody takes is played by the random bot (plays any legal action)');
  assert.equal(other.clock, '1 min 30 s for each decision, and no time bank');
  assert.equal(other.ladder, 'Rated on the ladder casual');
  assert.equal(other.spectators, 'Spectators watch 2 min behind the game');
  // A field the gateway leaves out reads as its default.
  assert.equal(settingsWords({ seats: 3 })[0].text, 'Catan: Cities & Knights');
  assert.equal(durationWords(3_900_000), '1 h 5 min');
  assert.equal(durationWords(7_200_000), '2 h');
  assert.equal(durationWords(5000), '5 s');
});

test('where the table stands, in words', () => {
  assert.equal(stateWords(table()), 'Open: 2 of 4 seats taken. Friends join with the link; the creator starts the game.');
  assert.equal(stateWords(table({ state: 'starting', round: 2 })), 'Starting round 2: the game is being set up.');
  assert.equal(stateWords(table({ state: 'playing', round: 1 })), 'Round 1 is being played.');
  assert.equal(stateWords(table({ state: 'playing', round: 1, game_over: true })), 'Round 1 is over.');
});

test('the people: the members in the order they joined, then the seating with its bots', () => {
  const open = tablePeople(table(), 'bo');
  assert.deepEqual(open, [
    { name: 'ana', label: 'ana', seat: null, bot: false, creator: true, you: false },
    { name: 'bo', label: 'bo', seat: null, bot: false, creator: false, you: true },
  ]);
  assert.ok(tablePeople(table(), null).every((p) => !p.you), 'signed out: nobody is "you"');
  // With the gateway's ids and your seat, names are not what decides.
  const byId = tablePeople(
    table({
      state: 'playing',
      seating: [
        { seat: 0, name: 'ana', id: 18, bot: false },
        { seat: 1, name: 'bo', id: 17, bot: false },
      ],
      you: { member: true, creator: false, seat: 0 },
    }),
    'bo',
  );
  assert.deepEqual(byId.map((p) => [p.creator, p.you]), [[false, true], [true, false]]);
  const seating = [
    { seat: 0, name: 'bo', bot: false },
    { seat: 1, name: 'bot:heuristic', bot: true },
    { seat: 2, name: 'ana', bot: false },
    { seat: 3, name: 'bot:heuristic', bot: true },
  ];
  const seated = tablePeople(table({ state: 'playing', seating }), 'ana');
  assert.deepEqual(seated.map((p) => [p.seat, p.label, p.bot, p.creator, p.you]), [
    [0, 'bo', false, false, false],
    [1, 'the heuristic bot', true, false, false],
    [2, 'ana', false, true, true],
    [3, 'the heuristic bot', true, false, false],
  ]);
  // A person named like a bot is not one.
  assert.equal(tablePeople(table({ seating: [{ seat: 0, name: 'bot:x', bot: false }] }), null)[0].label, 'bot:x');
});

test('the lobby\'s form becomes the request, in milliseconds, and figures out of bounds are named', () => {
  const body = tableRequest({ seats: '3', ruleset: 'base', bot: 'search', decision_s: '45', time_bank_min: '2.5', ladder: ' casual ', spectator_delay_min: '2' });
  assert.deepEqual(body, { ruleset: 'base', seats: 3, bot: 'search', decision_ms: 45_000, time_bank_ms: 150_000, ladder: 'casual', spectator_delay_ms: 120_000 });
  assert.equal(tableRequestProblem(body), null);
  // Empty fields are the API's defaults.
  const empty = tableRequest({});
  assert.deepEqual(empty, { ruleset: 'cities_and_knights', seats: 4, bot: 'heuristic', decision_ms: 60_000, time_bank_ms: 300_000, ladder: '', spectator_delay_ms: 0 });
  assert.equal(tableRequestProblem(empty), null);
  assert.equal(tableRequestProblem(tableRequest({ decision_s: '4' })).field, 'decision_s');
  assert.equal(tableRequestProblem(tableRequest({ decision_s: '601' })).field, 'decision_s');
  assert.equal(tableRequestProblem(tableRequest({ decision_s: 'abc' })).field, 'decision_s');
  assert.equal(tableRequestProblem(tableRequest({ time_bank_min: '61' })).field, 'time_bank_min');
  assert.equal(tableRequestProblem(tableRequest({ time_bank_min: '0' })), null, 'no time bank at all is a choice');
  assert.equal(tableRequestProblem(tableRequest({ spectator_delay_min: '-1' })).field, 'spectator_delay_min');
  assert.equal(tableRequestProblem(tableRequest({ spectator_delay_min: '61' })).field, 'spectator_delay_min');
  assert.equal(tableRequestProblem(tableRequest({ spectator_delay_min: '1.5' })).field, 'spectator_delay_min', 'whole minutes');
  assert.equal(tableRequestProblem(tableRequest({ spectator_delay_min: '60' })), null);
  // A refusal's parameter marks the form's field.
  assert.equal(formFieldOf('decision_ms'), 'decision_s');
  assert.equal(formFieldOf('ladder'), 'ladder');
  assert.equal(formFieldOf(undefined), null);
});
