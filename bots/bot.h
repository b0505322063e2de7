// Bots: players that see only their seat's View (engine/view.h) — the public
// state, their own cards and what their KnowledgeTracker has observed — and
// never the full State. A host (the arena, the game service) builds the view
// of the seat to act and asks the seat's bot for one of view.legal.
//
//   random      uniform over the legal actions
//   greedy      one ply over a small evaluation of its own seat (greedy.h)
//   heuristic   a hand-tuned one-ply player (heuristic.h)
//   search      information-set Monte Carlo tree search (search.h)
//
// The heuristic and search bots make, answer and counter player-to-player
// trade offers (trading.h) unless their spec says trade=0.
//
// Every bot is seeded: its randomness comes only from the stream behind the
// `rng` argument, so the same view and the same stream state give the same
// decision (a search with a time budget is the exception: it stops on the
// clock, so how far it got depends on the machine).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/view.h"
#include "lib/chance/splitmix.h"

namespace metropolis::bots {

class Bot {
 public:
  virtual ~Bot();
  // Called only when the view's seat is to act (view.legal is not empty);
  // returns one of view.legal, or a trade offer or counter (TRD-3), which are
  // never listed there: the heuristic and search bots trade (trading.h).
  virtual Action Choose(const View& view, uint64_t* rng) = 0;
  // The spec that makes this bot again, e.g. "search:ms=50".
  virtual std::string name() const;
  // True when the bot reads nothing of its view but `viewer` and `legal` (the
  // random bot). A host playing many games (sim) may then show it a view with
  // only those two filled and keep no tracker for its seat: the decision is the
  // same, and building a whole view per decision would be most of a random
  // game's time.
  virtual bool ReadsOnlyLegal() const { return false; }
  // For a bot whose ReadsOnlyLegal() is true: the decision Choose makes on a
  // view holding only `viewer` and `legal`, from the same stream state. A host
  // may pass the engine's own list (State::LegalActions into an ActionList)
  // and build no view at all. The default shows Choose such a view; the random
  // bot chooses from the list directly.
  virtual Action ChooseFromLegal(int viewer, std::span<const Action> legal, uint64_t* rng);
  // The wall time its spec lets it think per decision, in milliseconds: a
  // search's time budget. 0 when the spec sets none: the random, greedy and
  // heuristic bots decide in a few milliseconds, and a search with an
  // iteration budget takes what the machine makes of it (LimitThinking bounds it).
  virtual double think_ms() const { return 0; }
  // Ends every decision after `ms` of thinking whatever the spec says, so that
  // a host's bot threads are never held longer (an iteration budget included).
  // Bots that think for a few milliseconds ignore it.
  virtual void LimitThinking(double /*ms*/) {}
};

// Builds a bot from a spec: a kind and optional "key=value" settings after a
// colon, separated by commas: "random", "greedy", "heuristic", "heuristic:trade=0",
// "search:ms=50", "search:iterations=2000,threads=2,trade=answer". Returns
// nullptr with *error set for an unknown kind or setting.
std::unique_ptr<Bot> MakeBot(std::string_view spec, std::string* error);
// The kinds MakeBot knows, for help texts.
const std::vector<std::string>& BotKinds();

// The bots' random source is the splitmix64 stream of lib/chance/splitmix.h, named
// here too so that bot code reads bots::NextRandom.
using chance::MixSeed;
using chance::NextRandom;
using chance::RandomBelow;
using chance::UniformRandom;

}  // namespace metropolis::bots
