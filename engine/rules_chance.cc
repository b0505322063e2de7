// Chance outcomes (RULES.md 0.4): the event die and the production dice, a
// random steal, the top card of a deck's unseen part, the start player.
#include <cassert>

#include "engine/rules_internal.h"

namespace metropolis {

namespace {

// P(face) of the event die: three ship faces, one gate of each colour (1.3).
constexpr double kEventProbability[kNumEventFaces] = {0.5, 1.0 / 6, 1.0 / 6, 1.0 / 6};

}  // namespace

std::vector<ChanceOutcome> State::ChanceOutcomes() const {
  std::vector<ChanceOutcome> out;
  if (CurrentPlayer() != kChancePlayer) return out;
  const Pending& p = pending_[pending_size_ - 1];
  switch (p.kind) {
    case PendingKind::kStartPlayer:
      for (int seat = 0; seat < num_seats_; ++seat)
        out.push_back({Action::Make(ActionType::kChanceStartPlayer, seat), 1.0 / num_seats_});
      break;
    case PendingKind::kDice:
      if (options_.ruleset == Ruleset::kBase) {  // BG-3: two production dice, no event die
        for (int y = 1; y <= 6; ++y)
          for (int r = 1; r <= 6; ++r) out.push_back({Action::Dice(y, r, 0), 1.0 / 36.0});
      } else if (p.a) {  // production dice fixed by an Alchemist
        for (int e = 0; e < kNumEventFaces; ++e) out.push_back({Action::Dice(0, 0, e), kEventProbability[e]});
      } else {
        out.reserve(36 * kNumEventFaces);  // one allocation, not eight (the replay codec asks at every roll)
        for (int y = 1; y <= 6; ++y)
          for (int r = 1; r <= 6; ++r)
            for (int e = 0; e < kNumEventFaces; ++e)
              out.push_back({Action::Dice(y, r, e), kEventProbability[e] / 36.0});
      }
      break;
    case PendingKind::kSteal: {
      // b = 1: resources only (D15 for the Bishop).
      const CardCounts& hand = players_[p.a].hand;
      const int types = p.b ? kNumResources : kNumCardTypes;
      const double total = p.b ? hand.Resources() : hand.Total();
      for (int c = 0; c < types; ++c)
        if (hand[c] > 0) out.push_back({Action::Make(ActionType::kChanceSteal, c), hand[c] / total});
      break;
    }
    case PendingKind::kDevDraw: {
      const int total = DevDeckSize();
      for (int k = 0; k < kNumDevKinds; ++k)
        if (dev_deck_[k] > 0) out.push_back({Action::Make(ActionType::kChanceDev, k), double(dev_deck_[k]) / total});
      break;
    }
    case PendingKind::kDraw: {
      const ProgressDeck& d = decks_[p.a];
      const int first = TrackFirstCard(p.a);
      for (int k = 0; k < TrackNumKinds(p.a); ++k)
        if (d.unseen[k] > 0)
          out.push_back({Action::Make(ActionType::kChanceDraw, first + k), double(d.unseen[k]) / d.unseen_total});
      break;
    }
    default:
      assert(false);
  }
  return out;
}

Action State::SampleChance(double u) const {
  assert(CurrentPlayer() == kChancePlayer);
  if (u < 0) u = 0;
  if (u >= 1) u = 0.9999999999;
  const Pending& p = pending_[pending_size_ - 1];
  auto pick_weighted = [&u](const uint8_t* weights, int n, int total) {
    int x = int(u * total);
    for (int i = 0; i < n; ++i) {
      if (x < weights[i]) return i;
      x -= weights[i];
    }
    return n - 1;
  };
  switch (p.kind) {
    case PendingKind::kStartPlayer:
      return Action::Make(ActionType::kChanceStartPlayer, int(u * num_seats_));
    case PendingKind::kDice: {
      if (options_.ruleset == Ruleset::kBase) {
        const int cell = int(u * 36);
        return Action::Dice(cell / 6 + 1, cell % 6 + 1, 0);
      }
      // The event die as six faces: three ships, then one gate each.
      const int cell = int(u * (p.a ? 6 : 216));
      const int face6 = cell % 6;
      const int event = face6 < 3 ? kEventShip : face6 - 2;
      if (p.a) return Action::Dice(0, 0, event);
      return Action::Dice(cell / 36 + 1, (cell / 6) % 6 + 1, event);
    }
    case PendingKind::kSteal: {
      const CardCounts& hand = players_[p.a].hand;
      const int types = p.b ? kNumResources : kNumCardTypes;
      return Action::Make(ActionType::kChanceSteal,
                          pick_weighted(hand.n.data(), types, p.b ? hand.Resources() : hand.Total()));
    }
    case PendingKind::kDevDraw:
      return Action::Make(ActionType::kChanceDev, pick_weighted(dev_deck_.data(), kNumDevKinds, DevDeckSize()));
    case PendingKind::kDraw: {
      const ProgressDeck& d = decks_[p.a];
      const int k = pick_weighted(d.unseen.data(), TrackNumKinds(p.a), d.unseen_total);
      return Action::Make(ActionType::kChanceDraw, TrackFirstCard(p.a) + k);
    }
    default:
      assert(false);
      return Action{};
  }
}

}  // namespace metropolis
