// ViewFromProto(ViewToProto(v)) == v, through the wire bytes, for every seat's
// view and the spectator's at every step of random games of both rulesets,
// with KnowledgeTracker-fed knowledge. Also measures what a view costs on the
// wire (printed as "[ view size ]" lines).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "engine/notation.h"
#include "engine/view.h"
#include "lib/protocol/convert.h"
#include "lib/protocol/tests/random_games.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::protocol {
namespace {

// Which parts of the position the games reached, so that a round trip that
// passes only because a part was always empty does not go unnoticed.
struct Coverage {
  int views = 0, known_hand = 0, known_progress = 0, trade_open = 0, counters = 0, pending = 0, hidden_returned = 0,
      progress_in_hand = 0, dev_in_hand = 0, legal = 0;
};

void Count(const View& v, Coverage* c) {
  const State& s = v.state;
  ++c->views;
  for (int p = 0; p < s.num_seats(); ++p) {
    c->known_hand += v.known_hand[p].Total() > 0;
    c->known_progress += std::any_of(v.known_progress[p].begin(), v.known_progress[p].end(), [](int k) { return k; });
    c->progress_in_hand += s.player(p).num_progress > 0;
    c->dev_in_hand += s.player(p).DevTotal() > 0;
    c->counters += s.trade().answer[p] == kCountered;
  }
  c->trade_open += s.trade().open;
  c->pending += s.pending_size() > 0;
  for (int t = 0; t < kNumTracks; ++t)
    for (int i = 0; i < s.deck(t).size; ++i) c->hidden_returned += s.deck(t).returned[i] == kHiddenCard;
  c->legal += !v.legal.empty();
}

// Names the first part of the view that differs, for the failure message.
std::string Difference(const View& a, const View& b) {
  if (a.viewer != b.viewer) return "viewer";
  if (a.hand_total != b.hand_total) return "hand_total";
  if (a.progress_count != b.progress_count) return "progress_count";
  if (a.unplaced_cards != b.unplaced_cards) return "unplaced_cards";
  if (a.unplaced_progress != b.unplaced_progress) return "unplaced_progress";
  if (a.known_hand != b.known_hand || a.known_progress != b.known_progress) return "known";
  if (a.legal != b.legal) return "legal";
  if (a.dev_count != b.dev_count) return "dev_count";
  if (a.dev_deck_size != b.dev_deck_size) return "dev_deck_size";
  if (a.dev_bought_count != b.dev_bought_count) return "dev_bought_count";
  if (a.unplaced_dev != b.unplaced_dev) return "unplaced_dev";
  for (int p = 0; p < kMaxSeats; ++p)
    if (!(a.state.player(p) == b.state.player(p))) return "state.player(" + std::to_string(p) + ")";
  for (int t = 0; t < kNumTracks; ++t)
    if (!(a.state.deck(t) == b.state.deck(t))) return "state.deck(" + std::to_string(t) + ")";
  if (!(a.state.trade() == b.state.trade())) return "state.trade";
  const State &x = a.state, &y = b.state;
#define METROPOLIS_SAME(expr) \
  if (!(x.expr == y.expr)) return "state." #expr
  METROPOLIS_SAME(options());
  METROPOLIS_SAME(board());
  METROPOLIS_SAME(phase());
  METROPOLIS_SAME(Winner());
  METROPOLIS_SAME(bank());
  METROPOLIS_SAME(effects());
  METROPOLIS_SAME(dev_deck());
  METROPOLIS_SAME(dev_discarded());
  METROPOLIS_SAME(dev_bought());
  METROPOLIS_SAME(dev_played_this_turn());
  METROPOLIS_SAME(largest_army_holder());
  METROPOLIS_SAME(pending_size());
  METROPOLIS_SAME(robber_hex());
  METROPOLIS_SAME(barbarian_position());
  METROPOLIS_SAME(action_count());
  METROPOLIS_SAME(current_seat());
  METROPOLIS_SAME(start_seat());
  METROPOLIS_SAME(setup_step());
  METROPOLIS_SAME(last_setup_node());
  METROPOLIS_SAME(turn_number());
  METROPOLIS_SAME(merchant_hex());
  METROPOLIS_SAME(merchant_owner());
  METROPOLIS_SAME(longest_road_holder());
  METROPOLIS_SAME(first_attack_done());
  METROPOLIS_SAME(barbarian_attacks());
  METROPOLIS_SAME(dice_yellow());
  METROPOLIS_SAME(dice_red());
  METROPOLIS_SAME(dice_event());
  METROPOLIS_SAME(offers_this_turn());
#undef METROPOLIS_SAME
  for (int i = 0; i < 24; ++i)
    if (!(x.pending(i) == y.pending(i))) return "state.pending(" + std::to_string(i) + ") beyond the stack";
  const auto* bx = reinterpret_cast<const unsigned char*>(&x);
  const auto* by = reinterpret_cast<const unsigned char*>(&y);
  for (size_t i = 0; i < sizeof(State); ++i)
    if (bx[i] != by[i]) return "state byte " + std::to_string(i) + " of " + std::to_string(sizeof(State));
  for (int i = 0; i < std::max(a.state.pending_size(), b.state.pending_size()); ++i)
    if (!(a.state.pending(i) == b.state.pending(i))) return "state.pending(" + std::to_string(i) + ")";
  return "state:\n" + ToNotation(a.state) + "\n" + ToNotation(b.state);
}

struct Sizes {
  std::vector<size_t> seat, spectator;
  int dev_bought_seen = 0;  // views where a bought card count travelled
};

size_t Percentile(std::vector<size_t> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[size_t(q * double(v.size() - 1))];
}

void CheckRoundTrip(const View& v, const GameConfig& config, Sizes* sizes) {
  // Reused, as a host or a bot would: Clear() keeps the messages' memory.
  static v1::View msg, parsed;
  static std::string bytes;
  ViewToProto(v, &msg);
  ASSERT_TRUE(msg.SerializeToString(&bytes));
  (v.viewer == kNoSeat ? sizes->spectator : sizes->seat).push_back(bytes.size());
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  View back{State()};
  std::string error;
  ASSERT_TRUE(ViewFromProto(parsed, config, &back, &error)) << error << "\n" << ToNotation(v.state);
  if (v.dev_bought_count != 0) ++sizes->dev_bought_seen;
  ASSERT_TRUE(back == v) << "viewer " << v.viewer << " at step " << v.state.action_count() << ": "
                         << Difference(back, v);
}

// Plays `games` games of `config` and round-trips every view at every step.
void PlayAndCheck(const GameConfig& config, int games, uint64_t seed, Sizes* sizes, Coverage* coverage) {
  const int n = config.num_seats;
  for (int g = 0; g < games && !::testing::Test::HasFailure(); ++g) {
    std::vector<KnowledgeTracker> trackers;
    for (int viewer = kNoSeat; viewer < n; ++viewer) trackers.emplace_back(viewer);
    testing::PlayRandomGame(config, seed + uint64_t(g),
                            [&](const State& s, const Action* applied, const std::vector<Event>& events) {
                              if (::testing::Test::HasFailure()) return;
                              if (applied == nullptr)
                                for (KnowledgeTracker& k : trackers) k.Reset(s);
                              for (KnowledgeTracker& k : trackers) {
                                for (const Event& e : events) k.Observe(MaskEvent(e, k.viewer()));
                                const View v = MakeView(s, k.viewer(), &k);
                                Count(v, coverage);
                                CheckRoundTrip(v, config, sizes);
                              }
                            });
  }
}

void Report(const char* what, const Sizes& s) {
  std::cout << "[ view size ] " << what << ": seat views median " << Percentile(s.seat, 0.5) << " B, p90 "
            << Percentile(s.seat, 0.9) << " B, max " << Percentile(s.seat, 1.0) << " B; spectator median "
            << Percentile(s.spectator, 0.5) << " B, max " << Percentile(s.spectator, 1.0) << " B (" << s.seat.size()
            << " seat views; " << s.dev_bought_seen << " with cards bought this turn)\n";
}

// Games per configuration: 5 configurations, so a few hundred games in all.
constexpr int kGames = 32;

class ViewRoundTrip : public ::testing::TestWithParam<int> {};

TEST_P(ViewRoundTrip, EveryViewEveryStep) {
  const GameConfig config = testing::TestConfigs()[size_t(GetParam())];
  Sizes sizes;
  Coverage c;
  PlayAndCheck(config, kGames, 1000 * uint64_t(GetParam() + 1), &sizes, &c);
  const bool base = config.options.ruleset == Ruleset::kBase;
  Report(base ? "base game" : "cities & knights", sizes);
  EXPECT_GT(c.known_hand, 0);
  EXPECT_GT(c.trade_open, 0);
  EXPECT_GT(c.counters, 0);
  EXPECT_GT(c.pending, 0);
  EXPECT_GT(c.legal, 0);
  if (base) {
    EXPECT_GT(c.dev_in_hand, 0);
  } else {
    EXPECT_GT(c.known_progress, 0);
    EXPECT_GT(c.hidden_returned, 0);
    EXPECT_GT(c.progress_in_hand, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, ViewRoundTrip, ::testing::Range(0, int(testing::TestConfigs().size())),
                         [](const ::testing::TestParamInfo<int>& info) {
                           const GameConfig c = testing::TestConfigs()[size_t(info.param)];
                           return std::string(c.options.ruleset == Ruleset::kBase ? "Base" : "CitiesAndKnights") +
                                  std::to_string(c.num_seats) + "Seats" + std::to_string(info.param);
                         });

// The spectator's convenience is the tracker-less spectator view.
TEST(PublicView, IsTheSpectatorsView) {
  testing::PlayRandomGame(testing::TestConfigs()[0], 5, [&](const State& s, const Action*, const std::vector<Event>&) {
    v1::View a, b;
    PublicViewToProto(s, &a);
    ViewToProto(MakeView(s, kNoSeat), &b);
    ASSERT_EQ(a.SerializeAsString(), b.SerializeAsString());
    ASSERT_EQ(a.viewer(), -1);
    ASSERT_EQ(a.legal_size(), 0);
  });
}

}  // namespace
}  // namespace metropolis::protocol
