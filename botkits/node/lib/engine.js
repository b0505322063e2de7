'use strict';
// The rules engine and the built-in bots in this process, through the native
// addon botkits/node/addon builds (metropolis_engine.node, Node-API): for bots
// that search, and for deciding with a built-in bot from the view the host sends.
//
//   const engine = require('./lib/engine').load();
//   const s = new engine.State({ seats: 4, board: 7 });   // RandomBoard(7); board: 'default' too
//   s.legalActions();          // BigUint64Array of codes, sorted; s.legalTexts() their texts
//   s.legalActionsInto(array); // the same into a BigUint64Array(1024) of yours; returns the count
//   s.apply(code | 'build_settlement n12');  // checked: an illegal action throws ILLEGAL_ACTION
//   s.applyLegal(i);           // the i-th legal action, unchecked (playouts)
//   s.isChanceNode; s.applyChance(u);       // u in [0, 1) picks the outcome
//   s.clone(); s.isTerminal; s.returns(); s.currentPlayer; s.evaluate(seat)
//   const view = decision.engineView;      // the host's view, read by the engine
//   const state = view.sampleState(seed);   // a full state consistent with it
//   new engine.Bot('heuristic').choose(view, stream) // {action, stream}
//   new engine.Match({...})    // a local game as the arena plays it (arena.js)
//
// Where the addon is: $METROPOLIS_ENGINE_ADDON, else the newest
// build/<preset>/botkits/node/metropolis_engine.node of this tree (the CMake
// build writes it there: cmake --build --preset release --target metropolis_node_addon).

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..', '..');
const ADDON = path.join('botkits', 'node', 'metropolis_engine.node');

// The addon's path, or null.
function findAddon(env = process.env) {
  if (env.METROPOLIS_ENGINE_ADDON) return env.METROPOLIS_ENGINE_ADDON;
  const build = path.join(ROOT, 'build');
  let best = null;
  let newest = -1;
  let dirs = [];
  try {
    dirs = fs.readdirSync(build);
  } catch {
    return null;
  }
  for (const dir of dirs) {
    const file = path.join(build, dir, ADDON);
    try {
      const { mtimeMs } = fs.statSync(file);
      if (mtimeMs > newest) [best, newest] = [file, mtimeMs];
    } catch {
      // no addon in this build
    }
  }
  return best;
}

let loaded = null;

// The addon's exports: State, View, Bot, Match, actionText, parseAction,
// botKinds, benchSignature, RULES_VERSION, CHANCE, TERMINAL, NO_SEAT.
function load(file = findAddon()) {
  if (loaded && (!file || loaded.file === path.resolve(file))) return loaded.engine;
  if (!file) {
    throw new Error('the engine addon is not built: cmake --build --preset release --target metropolis_node_addon '
      + '(or set METROPOLIS_ENGINE_ADDON to a metropolis_engine.node)');
  }
  const resolved = path.resolve(file);
  if (!fs.existsSync(resolved)) throw new Error(`the engine addon ${resolved} does not exist (METROPOLIS_ENGINE_ADDON)`);
  const engine = require(resolved);
  // A typed array made in JavaScript costs a fraction of one made through
  // Node-API (about 1 µs, ten engine steps): legalActions() copies the codes
  // from a scratch array the addon fills (legalActionsInto, which a search may
  // call itself to allocate nothing at all).
  const scratch = new BigUint64Array(1024);
  engine.State.prototype.legalActions = function legalActions() {
    return scratch.slice(0, this.legalActionsInto(scratch));
  };
  loaded = { file: resolved, engine };
  return engine;
}

// The engine's View of a kit Decision (what Decision.engineView gives):
// read from the bytes the host sent with the engine's own conversion.
function viewOf(decision) {
  if (!decision.bytes || !decision.welcomeBytes) throw new Error('the decision carries no bytes of the host\'s messages');
  return load().View.fromDecision(decision.bytes, decision.welcomeBytes);
}

// '' when `spec` makes a built-in bot (bots::MakeBot), else why not: for the
// command line's --bot, before anything connects.
function checkBotSpec(spec) {
  let engine;
  try {
    engine = load();
  } catch (e) {
    return `${spec} needs the engine addon: ${e.message}`;
  }
  try {
    void new engine.Bot(spec);
    return '';
  } catch (e) {
    return e.message.replace(/^Bot: /, '');
  }
}

module.exports = { load, findAddon, viewOf, checkBotSpec };
