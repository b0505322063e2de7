// The base game's own rules (RULES.md section 22): development cards (BG-4,
// BG-5) and Largest Army (BG-6). Everything else of the base game is the C&K
// code with the C&K parts switched off where RulesImpl::IsBase() is asked.
#include <cassert>

#include "engine/rules_internal.h"

namespace metropolis {

namespace {

constexpr CardCounts DevCost() {
  CardCounts c;
  c.n = {0, 0, 1, 1, 1, 0, 0, 0};  // BG-4: 1 wool + 1 grain + 1 ore
  return c;
}

}  // namespace

extern const CardCounts kDevCost = DevCost();

bool RulesImpl::CanPlayDev(const State& s, int dev) {
  // BG-5: one per turn, never a card bought this turn, never a VP card.
  if (s.dev_played_ || dev == kDevVictoryPoint) return false;
  const PlayerState& ps = s.players_[s.current_];
  return ps.dev[dev] > s.dev_bought_[dev];
}

void RulesImpl::LegalDevCards(const State& s, bool action_phase, ActionList* out) {
  const PlayerState& ps = s.players_[s.current_];
  // BG-4: BUY_DEV (code 70) in the action phase while the deck has cards.
  if (action_phase && ps.hand.Contains(kDevCost) && DevWord(s.dev_deck_) != 0)
    out->push(Action::Make(ActionType::kBuyDev));
  if (s.dev_played_) return;
  // Cards held from before this turn, per kind (bought ones are held too, so
  // the bytes subtract without borrows); most turns there are none.
  const uint64_t old_cards = DevWord(ps.dev) - DevWord(s.dev_bought_);
  if ((old_cards & ~(uint64_t(0xFF) << (8 * kDevVictoryPoint))) == 0) return;
  auto playable = [old_cards](int dev) { return ((old_cards >> (8 * dev)) & 0xFF) != 0; };
  if (playable(kDevKnight)) out->push(Action::PlayDev(kDevKnight));
  if (playable(kDevRoadBuilding)) out->push(Action::PlayDev(kDevRoadBuilding));
  if (playable(kDevYearOfPlenty)) {
    // Two resources the bank can give now (with an unlimited bank, any two).
    for (int b = 0; b < kNumResources; ++b)
      for (int c = b; c < kNumResources; ++c) {
        const bool ok = !s.options_.bank_limited || (b == c ? s.bank_[b] >= 2 : s.bank_[b] >= 1 && s.bank_[c] >= 1);
        if (ok) out->push(Action::PlayDev(kDevYearOfPlenty, b, c));
      }
  }
  if (playable(kDevMonopoly))
    for (int r = 0; r < kNumResources; ++r) out->push(Action::PlayDev(kDevMonopoly, r));
}

void RulesImpl::UpdateLargestArmy(State& s, Events* ev) {
  // BG-6: 3 Knights take it; another takes it over only with strictly more.
  int holder = s.largest_army_;
  for (int p = 0; p < s.num_seats_; ++p) {
    const int army = s.players_[p].army;
    if (army < 3 || p == holder) continue;
    if (holder == kNoSeat || army > s.players_[holder].army) holder = p;
  }
  if (holder == s.largest_army_) return;
  if (s.largest_army_ != kNoSeat) AddVp(s, s.largest_army_, -2);
  AddVp(s, holder, 2);
  s.largest_army_ = int8_t(holder);
  Emit(ev, EventType::kLargestArmy, holder);
}

void RulesImpl::ApplyDev(State& s, const Action& a, Events* ev) {
  const int seat = s.current_;
  PlayerState& ps = s.players_[seat];
  if (a.type == ActionType::kBuyDev) {
    Pay(s, seat, kDevCost, ev);
    Push(s, PendingKind::kDevDraw, seat);
    return;
  }
  assert(a.type == ActionType::kPlayDev);
  --ps.dev[a.a];
  s.dev_played_ = true;
  if (a.a != kDevKnight) ++s.dev_discarded_[a.a];
  switch (a.a) {
    case kDevKnight:
      ++ps.army;
      UpdateLargestArmy(s, ev);
      Push(s, PendingKind::kMoveRobber, seat, 0);  // ROB-2 as on a 7, then ROB-3
      break;
    case kDevRoadBuilding:
      Push(s, PendingKind::kRoadBuilding, seat, 2);
      break;
    case kDevYearOfPlenty:
      Gain(s, seat, a.b, 1);
      Gain(s, seat, a.c, 1);
      Emit(ev, EventType::kProduced, seat, 1, a.b);
      Emit(ev, EventType::kProduced, seat, 1, a.c);
      break;
    case kDevMonopoly:
      for (int k = 1; k < s.num_seats_; ++k) {
        const int q = (seat + k) % s.num_seats_;
        const int n = s.players_[q].hand[a.b];
        if (n == 0) continue;
        Transfer(s, q, seat, a.b, n);
        Emit(ev, EventType::kCardGiven, q, n, a.b, 0, seat);  // public, like the C&K monopolies
      }
      break;
    default:
      assert(false);
  }
}

}  // namespace metropolis
