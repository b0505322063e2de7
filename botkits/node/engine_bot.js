#!/usr/bin/env node
// A bot that plays the engine's own built-in bots (bots/: the heuristic by
// default, or greedy, random, search:ms=50, ...) from the view the host sends,
// through the engine addon: the Node.js counterpart of metropolis-bot, and the
// kit's example of deciding with the engine. It beats random players: the
// arena's figures are in docs/BOTS.md, "The Node.js engine bot".
//
//   cmake --build --preset release --target metropolis_node_addon   # once: the addon
//   node botkits/node/engine_bot.js --host 127.0.0.1:50051 --game GAME_ID --token TOKEN
//   node botkits/node/engine_bot.js --bot search:ms=200 --ladder open --matchmaker ADDR --api-token T
//
// The addon is found as lib/engine.js says ($METROPOLIS_ENGINE_ADDON, else the
// newest build of this tree). Exit status as metropolis-bot's.
'use strict';

const { main } = require('./lib/cli');
const engine = require('./lib/engine');
const { splitMixHash } = require('./lib/random');

// For each game, a decide function. The decision's engineView is the view the
// host sent, read by the engine itself (lib/protocol's ViewFromProto, as the C++
// kit reads it); the bot chooses on Node's worker pool, so the stream's
// keepalives go on while a search thinks. Actions the host refused for this
// decision are excluded. With --debug-notes the answer carries a note for the
// bot's author and the engine's evaluation of the seat's position (0 lost,
// 1 won) on one full state consistent with the view.
function engineBot({ spec, rng, notes }) {
  const { Bot, actionText } = engine.load();
  const bot = new Bot(spec);
  return async (decision) => {
    const view = decision.engineView;
    const refused = decision.rejected.map((a) => a.code).filter((code) => typeof code === 'bigint');
    const { action, stream } = await bot.chooseAsync(view, rng.state, refused);
    rng.state = stream;
    if (!notes) return action;
    const sample = view.sampleState(splitMixHash(BigInt(decision.step)));
    return {
      action,
      note: `${bot.name} chose ${actionText(action)} of ${decision.legal.length} legal`,
      evaluation: sample.normalizedValue(decision.seat),
    };
  };
}
engineBot.check = engine.checkBotSpec;

// Every kind of built-in bot; the heuristic and search also with settings
// ("heuristic:trade=0", "search:ms=50").
const deciders = {
  random: engineBot, greedy: engineBot, heuristic: engineBot, 'heuristic:': engineBot, search: engineBot, 'search:': engineBot,
};

module.exports = { decider: engineBot, deciders, defaultBot: 'heuristic' };

if (require.main === module) {
  main({ program: 'engine_bot.js', deciders, defaultBot: 'heuristic' }).then((status) => { process.exitCode = status; });
}
