#include "bots/match.h"

#include <cmath>

#include "engine/view.h"

namespace metropolis::bots {

GameOutcome PlayGame(const GameConfig& config, const std::vector<Seat>& seats, uint64_t chance_seed,
                     std::vector<Action>* actions) {
  GameOutcome out;
  State state(config);
  if (!NewGame(config, &state, &out.error)) return out;
  const int n = config.num_seats;
  std::vector<KnowledgeTracker> knowledge;
  for (int seat = 0; seat < n; ++seat) {
    knowledge.emplace_back(seat);
    knowledge.back().Reset(state);
  }
  std::vector<uint64_t> streams;
  for (int seat = 0; seat < n; ++seat) streams.push_back(seats[size_t(seat)].seed);
  chance::ChanceStreams chance(chance_seed);
  std::vector<Event> events;
  const uint64_t hard_cap = uint64_t(config.options.max_actions) + 1000;
  uint64_t steps = 0;
  while (!state.IsTerminal() && steps < hard_cap) {
    const int player = state.CurrentPlayer();
    Action action;
    if (player == kChancePlayer) {
      action = chance.Sample(state);
    } else {
      View view = MakeView(state, player, &knowledge[size_t(player)]);
      action = seats[size_t(player)].bot->Choose(view, &streams[size_t(player)]);
    }
    events.clear();
    if (std::string e = state.Apply(action, &events); !e.empty()) {
      out.error = "step " + std::to_string(steps + 1) + " '" + ActionToString(action) + "' by " +
                  (player == kChancePlayer ? std::string("chance") : "seat " + std::to_string(player)) + ": " + e;
      break;
    }
    if (actions) actions->push_back(action);
    if (action.type == ActionType::kTradeOffer) ++out.offers[size_t(player)];
    if (action.type == ActionType::kTradeCounter) ++out.counters[size_t(player)];
    for (const Event& e : events) {
      if (e.type == EventType::kTradeExecuted) {
        ++out.trades[size_t(e.seat)];
        ++out.trades[size_t(e.other)];
      }
      for (int seat = 0; seat < n; ++seat) knowledge[size_t(seat)].Observe(MaskEvent(e, seat));
    }
    ++steps;
  }
  out.winner = state.IsTerminal() ? state.Winner() : kNoSeat;
  out.actions = steps;
  out.turns = state.turn_number();
  for (int seat = 0; seat < n; ++seat) out.vp[size_t(seat)] = state.player(seat).vp;
  return out;
}

Interval WilsonInterval(int64_t successes, int64_t trials, double z) {
  if (trials <= 0) return {0, 1};
  const double n = double(trials), p = double(successes) / n, z2 = z * z;
  const double center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

double ZScore(double p, int64_t n, double p0) {
  if (n <= 0 || p0 <= 0 || p0 >= 1) return 0;
  return (p - p0) / std::sqrt(p0 * (1 - p0) / double(n));
}

}  // namespace metropolis::bots
