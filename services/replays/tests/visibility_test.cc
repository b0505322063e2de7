// The rule for hidden tournament games (services/replays/visibility.h), alone:
// hidden unless revealed, whatever the order in which games and reveals arrive.
#include "services/replays/visibility.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace metropolis::replays {
namespace {

TEST(Visibility, AGameWithoutATournamentIsShown) { EXPECT_TRUE(Visible("g-1", "", {})); }

TEST(Visibility, ATournamentGameIsHiddenUntilRevealed) {
  EXPECT_FALSE(Visible("t-dup-0-1", "dup", {}));
  EXPECT_TRUE(Visible("t-dup-0-1", "dup", {{"dup", "t-dup-0-1"}}));
}

TEST(Visibility, AWholeTournamentRevealShowsEachOfItsGames) {
  const std::vector<Reveal> reveals = {{"rr", ""}};
  EXPECT_TRUE(Visible("t-rr-0-1", "rr", reveals));
  EXPECT_TRUE(Visible("t-rr-7-2", "rr", reveals));
  EXPECT_FALSE(Visible("t-dup-0-1", "dup", reveals)) << "another tournament's reveal shows nothing here";
}

TEST(Visibility, ARevealShowsOnlyTheGamesItNames) {
  // The set's counted rotations are revealed; its void attempt is not named.
  const std::vector<Reveal> reveals = {{"dup", "t-dup-0-2"}, {"dup", "t-dup-1-1"}};
  EXPECT_TRUE(Visible("t-dup-0-2", "dup", reveals));
  EXPECT_TRUE(Visible("t-dup-1-1", "dup", reveals));
  EXPECT_FALSE(Visible("t-dup-0-1", "dup", reveals));
  EXPECT_FALSE(Visible("t-dup-2-1", "dup", reveals)) << "a set still playing";
}

TEST(Visibility, ARevealCountsOnlyUnderTheGamesOwnTournament) {
  // A game id revealed under one tournament does not show a game stored with
  // that id under another one (or under none would be shown anyway).
  EXPECT_FALSE(Visible("t-dup-0-1", "other", {{"dup", "t-dup-0-1"}}));
  EXPECT_FALSE(Visible("t-dup-0-1", "dup", {{"dup-2", ""}}));
}

// Every order of: storing each rotation of a set, the reveal of the set, the
// reveal again (a retry whose first answer was lost), and the storing of a void
// attempt. After each event a game is shown exactly when it is stored and the
// reveal has arrived; the void attempt never is.
TEST(Visibility, EveryOrderOfStoresAndRevealsShowsTheSetOnlyOnceRevealed) {
  enum Event { kStore0, kStore1, kReveal, kRevealAgain, kStoreVoid };
  std::vector<int> order = {kStore0, kStore1, kReveal, kRevealAgain, kStoreVoid};
  int orders = 0;
  do {
    std::set<std::string> stored;
    std::vector<Reveal> reveals;
    bool revealed = false;
    for (int e : order) {
      switch (e) {
        case kStore0:
          stored.insert("t-dup-0-1");
          break;
        case kStore1:
          stored.insert("t-dup-1-1");
          break;
        case kStoreVoid:
          stored.insert("t-dup-0-0");
          break;
        case kReveal:
        case kRevealAgain:
          // What the store keeps: one row per (tournament, game), added once.
          for (const char* id : {"t-dup-0-1", "t-dup-1-1"}) {
            const Reveal r{"dup", id};
            if (std::none_of(reveals.begin(), reveals.end(),
                             [&](const Reveal& x) { return x.tournament == r.tournament && x.game_id == r.game_id; }))
              reveals.push_back(r);
          }
          revealed = true;
          break;
      }
      for (const std::string& id : stored) {
        const bool counted = id != "t-dup-0-0";
        EXPECT_EQ(Visible(id, "dup", reveals), counted && revealed) << id << " after event " << e;
      }
    }
    ++orders;
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(orders, 120);
}

}  // namespace
}  // namespace metropolis::replays
