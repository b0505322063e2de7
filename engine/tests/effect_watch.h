// Effects checked from the outside during random games (perft_test.cc): the
// reference generator lists decisions but never applies them, so what a 7 or
// a progress card does to the hands is compared here with RULES.md directly.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/progress.h"
#include "engine/state.h"

namespace metropolis::effect_watch {

// SEV-2 checked from the outside, since the reference only lists the cards a
// pending discard may take: after a 7, exactly the players over their limit
// (7 + 2 per wall, counted on the board) discard, each half his hand rounded
// down, one after the other in turn order from the current player.
class SevenWatch {
 public:
  void AfterChance(const State& s, const Action& a) {
    if (a.type != ActionType::kChanceDice || a.a + a.b != 7) return;
    active_ = true;
    expected_.reset();
    seen_ = {};
    order_.clear();
    current_ = s.current_seat();
  }
  void BeforeAction(const State& s, int actor, const Action& a) {
    if (!active_ || a.type != ActionType::kDiscard) return;
    if (!expected_) Expect(s);  // pillages of the same roll are over: hands and walls are final
    if (order_.empty() || order_.back() != actor) order_.push_back(actor);
    ++seen_[actor];
  }
  // The check runs once the 7 has moved on to the robber or to the action phase.
  std::string Finish(const State& s) {
    if (!active_) return "";
    const bool robber = s.pending_size() > 0 && s.pending(s.pending_size() - 1).kind == PendingKind::kMoveRobber;
    const bool done = (s.pending_size() == 0 && s.phase() != Phase::kSetup) || robber || s.IsTerminal();
    if (!done) return "";
    active_ = false;
    if (s.IsTerminal()) return "";
    if (!expected_) Expect(s);
    std::string wrong;
    std::vector<int> order;
    for (int i = 0; i < s.num_seats(); ++i) {
      const int q = (current_ + i) % s.num_seats();
      if ((*expected_)[q] > 0) order.push_back(q);
      if (seen_[q] != (*expected_)[q])
        wrong += "  seat " + std::to_string(q) + " discarded " + std::to_string(seen_[q]) + ", expected " +
                 std::to_string((*expected_)[q]) + "\n";
    }
    if (wrong.empty() && order != order_) wrong = "  discards not in turn order from the current player\n";
    return wrong;
  }

 private:
  void Expect(const State& s) {
    expected_.emplace();
    for (int q = 0; q < s.num_seats(); ++q) {
      int walls = 0;
      for (int v = 0; v < kNumNodes; ++v)
        walls += s.building(v) != kNoBuilding && s.building_owner(v) == q && (s.node_flags(v) & kWall);
      const int n = s.player(q).hand.Total();
      (*expected_)[q] = n > 7 + 2 * walls ? n / 2 : 0;
    }
  }

  bool active_ = false;
  int current_ = 0;
  std::optional<std::array<int, kMaxSeats>> expected_;
  std::array<int, kMaxSeats> seen_{};
  std::vector<int> order_;
};

// Card effects checked from the outside, since the reference lists decisions
// but never applies them. Once a played card's resolution is over (nothing
// pending in the action phase), the card lies face up at the bottom of its
// deck (PC-6), the Saboteur made exactly the opponents at or above the
// player's VP discard half their hands (C-P6), the Wedding made exactly the
// richer opponents give two cards each (C-P9), and a monopoly took exactly
// what C-T5/C-T6 say.
class CardWatch {
 public:
  void BeforeAction(const State& s, int actor, const Action& a) {
    if (active_) {
      if (a.type == ActionType::kDiscard) ++discarded_[actor];
      if (a.type == ActionType::kGiveCard && s.pending(s.pending_size() - 1).kind == PendingKind::kWeddingGive)
        ++given_[actor];
      return;
    }
    if (a.type != ActionType::kPlayProgress || a.a == kAlchemist) return;
    active_ = true;
    play_ = a;
    player_ = actor;
    before_ = s;
    discarded_ = {};
    given_ = {};
  }

  std::string Finish(const State& s) {
    if (!active_ || s.IsTerminal()) {
      active_ = active_ && !s.IsTerminal();
      return "";
    }
    if (s.pending_size() > 0 || s.phase() != Phase::kAction) return "";
    active_ = false;
    std::string wrong;
    const int card = play_.a;
    if (PublicInQueue(s.deck(ProgressTrack(card)), card) <= PublicInQueue(before_.deck(ProgressTrack(card)), card))
      wrong += "  PC-6: the played card is not at the bottom of its deck, face up\n";
    const int p = player_;
    const RulesOptions& o = s.options();
    for (int q = 0; q < s.num_seats(); ++q) {
      if (q == p) continue;
      const PlayerState& was = before_.player(q);
      const int me = before_.player(p).vp;
      const std::string seat = "  seat " + std::to_string(q) + ": ";
      if (card == kSaboteur && o.saboteur != Saboteur::kSabotageCity) {
        const bool hit = o.saboteur == Saboteur::kHalfHandVpGe ? was.vp >= me : was.vp > me;
        const int expected = hit ? was.hand.Total() / 2 : 0;
        if (discarded_[q] != expected)
          wrong +=
              seat + "discarded " + std::to_string(discarded_[q]) + ", expected " + std::to_string(expected) + "\n";
      }
      if (card == kWedding) {
        int takeable = 0;
        for (int c = 0; c < (o.progress_takes_resources_only ? kNumResources : kNumCardTypes); ++c)
          takeable += was.hand[c];
        const int expected = was.vp > me ? std::min(2, takeable) : 0;
        if (given_[q] != expected)
          wrong += seat + "gave " + std::to_string(given_[q]) + ", expected " + std::to_string(expected) + "\n";
      }
      if (card == kResourceMonopoly || card == kTradeMonopoly) {
        const int c = play_.b;
        const int expected = std::min(card == kResourceMonopoly ? 2 : 1, int(was.hand[c]));
        const int lost = was.hand[c] - s.player(q).hand[c];
        if (lost != expected)
          wrong += seat + "gave " + std::to_string(lost) + " " + std::string(CardName(c)) + ", expected " +
                   std::to_string(expected) + "\n";
      }
    }
    return wrong.empty() ? "" : "after " + ActionToString(play_) + " by seat " + std::to_string(p) + "\n" + wrong;
  }

 private:
  static int PublicInQueue(const ProgressDeck& d, int card) {
    int n = 0;
    for (int i = 0; i < d.size; ++i) {
      const int k = (d.head + i) % ProgressDeck::kCapacity;
      n += d.returned[k] == card && d.returned_hidden[k] == 0;
    }
    return n;
  }

  bool active_ = false;
  Action play_;
  int player_ = 0;
  State before_;
  std::array<int, kMaxSeats> discarded_{}, given_{};
};

// The base game's development cards checked from the outside (BG-4..BG-6),
// since the reference only lists them: a draw puts the card in the buyer's
// hand as bought this turn; once a played card's effect is over (nothing
// pending), it left the hand, Year of Plenty gave exactly its two resources,
// a Monopoly took every card of its resource from every opponent, Road
// Building placed at most two roads, a Knight lies face up in front of its
// owner, and Largest Army is where BG-6 puts it.
class DevWatch {
 public:
  void BeforeAction(const State& s, const Action& a) {
    if (a.type != ActionType::kPlayDev && a.type != ActionType::kChanceDev) return;
    active_ = true;
    play_ = a;
    player_ = a.type == ActionType::kChanceDev ? s.pending(s.pending_size() - 1).seat : s.current_seat();
    before_ = s;
  }

  std::string Finish(const State& s) {
    if (!active_ || s.pending_size() > 0) return "";
    active_ = false;
    if (s.IsTerminal()) return "";
    const int p = player_, k = play_.a;
    const PlayerState &was = before_.player(p), &now = s.player(p);
    std::string wrong;
    auto expect = [&](bool ok, const std::string& what) {
      if (!ok) wrong += "  " + what + "\n";
    };
    if (play_.type == ActionType::kChanceDev) {
      expect(now.dev[k] == was.dev[k] + 1, "BG-4: the drawn card is not in the buyer's hand");
      expect(s.dev_bought()[k] == before_.dev_bought()[k] + 1, "BG-5: the drawn card is not marked as bought");
    } else {
      expect(now.dev[k] + 1 == was.dev[k], "BG-5: the played card did not leave the hand");
      expect(s.dev_played_this_turn(), "BG-5: the turn's one card is not used up");
      if (k == kDevKnight) {
        expect(now.army == was.army + 1, "BG-5: the Knight does not lie in front of its owner");
        int holder = before_.largest_army_holder();
        if (now.army >= 3 && (holder == kNoSeat || now.army > before_.player(holder).army)) holder = p;
        expect(s.largest_army_holder() == holder, "BG-6: Largest Army with the wrong seat");
      }
      if (k == kDevYearOfPlenty) {
        CardCounts expected = was.hand;
        ++expected[play_.b];
        ++expected[play_.c];
        expect(now.hand == expected, "BG-5: Year of Plenty did not give exactly its two resources");
      }
      if (k == kDevMonopoly) {
        int taken = 0;
        for (int q = 0; q < s.num_seats(); ++q) {
          if (q == p) continue;
          taken += before_.player(q).hand[play_.b];
          expect(s.player(q).hand[play_.b] == 0, "BG-5: seat " + std::to_string(q) + " kept cards of the monopoly");
        }
        expect(now.hand[play_.b] == was.hand[play_.b] + taken, "BG-5: the Monopoly's cards did not all arrive");
      }
      if (k == kDevRoadBuilding) {
        int placed = 0;
        for (int e = 0; e < kNumEdges; ++e) placed += s.road_owner(e) == p && before_.road_owner(e) != p;
        expect(placed <= 2, "BG-5: Road Building placed more than two roads");
      }
    }
    return wrong.empty() ? "" : "after " + ActionToString(play_) + " for seat " + std::to_string(p) + "\n" + wrong;
  }

 private:
  bool active_ = false;
  Action play_;
  int player_ = 0;
  State before_;
};

}  // namespace metropolis::effect_watch
