#!/usr/bin/env node
// A Metropolis bot that plays uniformly random legal moves: the smallest bot of
// the Node.js kit (botkits/README.md). The kit plays the seat (the Play stream,
// rejections, reconnection, redirects, ladders and tournaments) and reads the
// flags; the bot is the function that picks an action.
//
//   npm ci --prefix botkits/node       # once: @grpc/grpc-js and @grpc/proto-loader
//   node botkits/node/random_bot.js --host 127.0.0.1:50051 --game GAME_ID --token TOKEN
//   node botkits/node/random_bot.js --help
//
// The .proto files and docs/protocol.json are read at run time; nothing is
// generated. Exit status: 0 when the game is over, 1 when it could not be played
// to its end (the gRPC status is printed), 2 for bad arguments.
'use strict';

const { main } = require('./lib/cli');

// For each game, a decide function: given the decision (its step, the seat's
// view, the legal actions with their codes and texts, what was refused), it
// returns one of the legal actions. `rng` is the game's seeded random stream
// (--seed); `notes` asks for a debug note with each answer (--debug-notes).
function random({ rng, notes }) {
  return (decision) => {
    // Never the same refused action twice: the kit would not send it again.
    const open = decision.legal.filter((a) => !decision.rejected.some((r) => r.code === a.code));
    const choices = open.length ? open : decision.legal;
    const action = choices[rng.below(choices.length)];
    if (!notes) return action;
    return { action, note: `random chose ${action.text} of ${decision.legal.length} legal` };
  };
}

module.exports = { decider: random, deciders: { random }, defaultBot: 'random' };

if (require.main === module) {
  main({ program: 'random_bot.js', deciders: { random }, defaultBot: 'random' })
    .then((status) => { process.exitCode = status; });
}
