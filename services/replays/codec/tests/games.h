// Games for the codec's tests: random players that also make trade offers and
// counters (which the engine never lists), and the heuristic bot.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "engine/config.h"
#include "engine/state.h"
#include "engine/view.h"
#include "lib/chance/chance.h"

namespace metropolis::replays::testing {

inline GameConfig Config(int seats, uint64_t board_seed, const std::string& options = "") {
  GameConfig c;
  c.num_seats = seats;
  c.board = RandomBoard(board_seed);
  size_t start = 0;
  while (start < options.size()) {
    const size_t end = std::min(options.find(' ', start), options.size());
    if (std::string e = ParseOption(options.substr(start, end - start), &c.options); !e.empty()) std::abort();
    start = end + 1;
  }
  return c;
}

// Some cards of `hand` (at most 2, and at most 7 of a type), maybe none.
inline CardCounts SomeCards(const CardCounts& hand, uint64_t* rng) {
  CardCounts c;
  for (int k = 0; k < 2; ++k) {
    const int card = int(bots::NextRandom(rng) % kNumCardTypes);
    if (hand[card] > c[card] && c[card] < kMaxCardsPerTypeInOffer) ++c[card];
  }
  return c;
}

inline CardCounts OneCard(uint64_t* rng) {
  CardCounts c;
  c[bots::NextRandom(rng) % kNumCardTypes] = 1;
  return c;
}

// A random trade offer or counter, where one could be made; the engine refuses
// the invalid ones.
inline bool RandomParameterised(const State& s, uint64_t* rng, Action* out) {
  if (s.phase() == Phase::kAction && s.pending_size() == 0) {
    const int seat = s.current_seat();
    const int mask = int(bots::NextRandom(rng) % (1u << s.num_seats())) & ~(1 << seat);
    *out = Action::TradeOffer(SomeCards(s.player(seat).hand, rng), OneCard(rng), mask);
    return true;
  }
  if (s.pending_size() > 0 && s.pending(s.pending_size() - 1).kind == PendingKind::kTradeAnswer) {
    *out = Action::TradeCounter(SomeCards(s.player(s.CurrentPlayer()).hand, rng), OneCard(rng));
    return true;
  }
  return false;
}

struct PlayOptions {
  int parameterised_every = 0;  // about one try in this many decisions; 0: none
  bool heuristic = false;       // the heuristic bot in every seat, else uniform random
};

// Plays a whole game (to a win or max_actions) and returns its actions.
// *parameterised counts the offers and counters in it.
inline std::vector<Action> PlayGame(const GameConfig& config, uint64_t seed, const PlayOptions& opt,
                                    int* parameterised = nullptr) {
  State s;
  std::string error;
  if (!NewGame(config, &s, &error)) std::abort();
  std::unique_ptr<bots::Bot> bot;
  std::vector<KnowledgeTracker> knowledge;
  if (opt.heuristic) {
    bot = bots::MakeBot("heuristic", &error);
    for (int seat = 0; seat < config.num_seats; ++seat) {
      knowledge.emplace_back(seat);
      knowledge.back().Reset(s);
    }
  }
  chance::ChanceStreams chance(seed);
  uint64_t rng = bots::MixSeed(seed, 99);
  std::vector<Action> actions;
  std::vector<Event> events;
  while (!s.IsTerminal()) {
    const int player = s.CurrentPlayer();
    Action a;
    if (player == kChancePlayer) {
      a = chance.Sample(s);
    } else if (opt.parameterised_every > 0 && bots::NextRandom(&rng) % opt.parameterised_every == 0 &&
               RandomParameterised(s, &rng, &a) && s.CheckAction(a).empty()) {
      if (parameterised) ++*parameterised;
    } else if (bot) {
      a = bot->Choose(MakeView(s, player, &knowledge[size_t(player)]), &rng);
    } else {
      const std::vector<Action> legal = s.LegalActions();
      a = legal[bots::NextRandom(&rng) % legal.size()];
    }
    events.clear();
    if (!s.Apply(a, &events).empty()) std::abort();
    for (const Event& e : events)
      for (int seat = 0; seat < int(knowledge.size()); ++seat) knowledge[size_t(seat)].Observe(MaskEvent(e, seat));
    actions.push_back(a);
  }
  return actions;
}

}  // namespace metropolis::replays::testing
