#include "analysis/luck.h"

#include <algorithm>

#include "engine/production.h"

namespace metropolis::analysis {
namespace {

// Places from points: the winner first, then by points; equal points share a
// place (the next place skips, as in any standings).
template <typename Points>
void Rank(int num_seats, int winner, const Points& points, std::array<int, kMaxSeats>* place) {
  for (int s = 0; s < num_seats; ++s) {
    int ahead = 0;
    for (int o = 0; o < num_seats; ++o) {
      if (o == s) continue;
      if (winner >= 0) {
        if (o == winner) {
          ++ahead;
          continue;
        }
        if (s == winner) continue;
      }
      if (points[size_t(o)] > points[size_t(s)]) ++ahead;
    }
    (*place)[size_t(s)] = ahead + 1;
  }
}

}  // namespace

void AddLuckOfStep(const State& before, const Action& action, const std::vector<Event>& events, LuckAccount* account) {
  const int n = before.num_seats();
  account->num_seats = n;
  if (action.type == ActionType::kChanceDice && before.IsChanceNode()) {
    // The outcomes of this very roll with their probabilities: with dice fixed
    // by an Alchemist only the event die varies, and the state holds the dice.
    const bool fixed = before.pending(before.pending_size() - 1).a != 0;
    auto yellow = [&](const Action& a) { return fixed ? before.dice_yellow() : int(a.a); };
    auto red = [&](const Action& a) { return fixed ? before.dice_red() : int(a.b); };
    std::array<double, 13> p_sum{};
    std::array<double, kMaxSeats> p_draw{};
    for (const ChanceOutcome& o : before.ChanceOutcomes()) {
      p_sum[size_t(yellow(o.action) + red(o.action))] += o.probability;
      for (int s = 0; s < n; ++s)
        if (DrawsProgress(before, s, red(o.action), o.action.c)) p_draw[size_t(s)] += o.probability;
    }
    std::array<double, kMaxSeats> expected{};
    for (int sum = 2; sum <= 12; ++sum) {
      if (p_sum[size_t(sum)] == 0) continue;
      const std::array<int, kMaxSeats> cards = CardsProducedBy(before, sum);
      for (int s = 0; s < n; ++s) expected[size_t(s)] += p_sum[size_t(sum)] * cards[size_t(s)];
    }
    const std::array<int, kMaxSeats> got = CardsProducedBy(before, yellow(action) + red(action));
    ++account->production_rolls;
    for (int s = 0; s < n; ++s) {
      SeatLuck& seat = account->seats[size_t(s)];
      if (seat.start_vp < 0) seat.start_vp = before.player(s).vp;
      ++seat.rolls;
      seat.expected_cards += expected[size_t(s)];
      seat.dice_cards += got[size_t(s)];
      seat.expected_draws += p_draw[size_t(s)];
      seat.draws += DrawsProgress(before, s, red(action), action.c) ? 1 : 0;
    }
  }
  for (const Event& e : events) {
    switch (e.type) {
      case EventType::kAction:
        if (e.action.type == ActionType::kDiscard && e.seat >= 0) ++account->seats[size_t(e.seat)].cards_discarded;
        break;
      case EventType::kStole:
        ++account->seats[size_t(e.seat)].cards_stolen;
        if (e.other >= 0) ++account->seats[size_t(e.other)].cards_lost;
        break;
      case EventType::kBarbarianAttack:
        ++account->barbarian_attacks;
        break;
      case EventType::kCityPillaged:
        ++account->seats[size_t(e.seat)].cities_pillaged;
        break;
      case EventType::kDefender:
        ++account->seats[size_t(e.seat)].defender_points;
        break;
      default:
        break;
    }
  }
}

void FinishLuck(const State& final_state, LuckAccount* account) {
  const int n = final_state.num_seats();
  account->num_seats = n;
  int total_cards = 0, total_vp = 0;  // the points scored after the first roll
  std::array<int, kMaxSeats> vp{};
  for (int s = 0; s < n; ++s) {
    SeatLuck& seat = account->seats[size_t(s)];
    seat.vp = vp[size_t(s)] = final_state.ComputeVictoryPoints(s);
    seat.luck_cards =
        (seat.dice_cards - seat.expected_cards) + kCardsPerProgressCard * (seat.draws - seat.expected_draws);
    total_cards += seat.dice_cards;
    total_vp += std::max(0, seat.vp - std::max(0, seat.start_vp));
  }
  account->cards_per_vp = total_vp > 0 ? double(total_cards) / total_vp : 0;
  std::array<double, kMaxSeats> adjusted{};
  for (int s = 0; s < n; ++s) {
    SeatLuck& seat = account->seats[size_t(s)];
    seat.adjusted_vp = account->cards_per_vp > 0 ? seat.vp - seat.luck_cards / account->cards_per_vp : seat.vp;
    adjusted[size_t(s)] = seat.adjusted_vp;
  }
  std::array<int, kMaxSeats> place{}, adjusted_place{};
  Rank(n, final_state.Winner(), vp, &place);
  // Without luck nobody is the winner by rule: the adjusted points alone decide.
  Rank(n, kNoSeat, adjusted, &adjusted_place);
  for (int s = 0; s < n; ++s) {
    account->seats[size_t(s)].place = place[size_t(s)];
    account->seats[size_t(s)].adjusted_place = adjusted_place[size_t(s)];
  }
}

bool ComputeLuck(const GameRecord& record, LuckAccount* out, std::string* error) {
  *out = LuckAccount{};
  State previous(record.config);
  bool have_previous = false;
  State last(record.config);
  const bool ok = ReplayGame(
      record,
      [&](int step, const State& state, const Action* action, const std::vector<Event>& events) {
        if (step > 0 && have_previous) AddLuckOfStep(previous, *action, events, out);
        previous = state;
        have_previous = true;
        last = state;
      },
      error);
  if (!ok) return false;
  FinishLuck(last, out);
  return true;
}

}  // namespace metropolis::analysis
