// Player-to-player trades of the heuristic and search bots (trading.h,
// RULES.md TRD-3): offers that would hand a win, offers a bot cannot pay, and
// counters.
#include "bots/trading.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "bots/match.h"
#include "engine/state_editor.h"
#include "engine/view.h"

namespace metropolis::bots {
namespace {

// A position where the current seat is in its action phase (TRN-6) with
// nothing pending, after `skip` such positions of seeded random play.
State ActionPhase(uint64_t seed, int skip) {
  GameConfig config;
  config.board = RandomBoard(seed);
  State s(config);
  std::string error;
  EXPECT_TRUE(NewGame(config, &s, &error)) << error;
  uint64_t rng = seed;
  while (!s.IsTerminal()) {
    if (s.IsChanceNode()) {
      s.ApplyUnchecked(s.SampleChance(UniformRandom(&rng)));
      continue;
    }
    if (s.phase() == Phase::kAction && s.pending_size() == 0 && s.turn_number() > 8 && skip-- <= 0) return s;
    std::vector<Action> legal = s.LegalActions();
    // Random play, but never offering: the position must have no open trade.
    Action a = legal[RandomBelow(&rng, uint32_t(legal.size()))];
    s.ApplyUnchecked(a);
  }
  ADD_FAILURE() << "no action phase in game " << seed;
  return s;
}

CardCounts Cards(std::initializer_list<std::pair<int, int>> cards) {
  CardCounts c;
  for (auto [card, n] : cards) c[card] = uint8_t(n);
  return c;
}

// Gives `seat` exactly `hand`, the difference going to or coming from the
// bank, so that cards stay conserved.
void SetHand(State* s, int seat, const CardCounts& hand) {
  StateEditor ed(s);
  CardCounts& h = ed.player(seat).hand;
  for (int c = 0; c < kNumCardTypes; ++c) ed.bank()[c] = int16_t(ed.bank()[c] + h[c] - hand[c]);
  h = hand;
}

// Victory points to win such that `seat` is within a turn of a win
// (WinReach), or nobody is. Others as strong as `seat` are in reach too;
// 0 when another seat has already more than `seat` can reach.
void SetWinTarget(State* s, int seat, bool in_reach) {
  StateEditor ed(s);
  int most = 0;
  for (int q = 0; q < s->num_seats(); ++q) most = std::max<int>(most, s->player(q).vp);
  ed.options().victory_points = in_reach ? s->player(seat).vp + WinReach(*s) : most + WinReach(*s) + 4;
  if (most >= ed.options().victory_points) ed.options().victory_points = 0;
}

Action Decide(const char* spec, const State& s, uint64_t seed) {
  std::string error;
  std::unique_ptr<Bot> bot = MakeBot(spec, &error);
  EXPECT_NE(bot, nullptr) << error;
  uint64_t rng = seed;
  return bot->Choose(MakeView(s, s.CurrentPlayer()), &rng);
}

const char* const kTraders[] = {"heuristic", "search:iterations=40"};

// A generous offer (three cards for one the answerer holds twice) is taken
// when the offerer is far from winning, and declined, with no counter, when
// the trade could hand him the win (TRD-3 with the bots' hard limit).
TEST(Trading, NeverAnswersAnOfferThatMayHandAWin) {
  int accepted = 0, checked = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    State s = ActionPhase(seed, 0);
    const int offerer = s.current_seat(), answerer = (offerer + 1) % s.num_seats();
    SetHand(&s, offerer, Cards({{kOre, 1}, {kGrain, 1}, {kWool, 1}}));
    SetHand(&s, answerer, Cards({{kLumber, 2}, {kBrick, 1}}));
    const Action offer =
        Action::TradeOffer(Cards({{kOre, 1}, {kGrain, 1}, {kWool, 1}}), Cards({{kLumber, 1}}), 1 << answerer);
    for (bool in_reach : {false, true}) {
      State x = s;
      SetWinTarget(&x, offerer, in_reach);
      if (x.options().victory_points == 0) continue;
      ASSERT_EQ(x.Validate(), "");
      ASSERT_EQ(x.CheckAction(offer), "");
      x.ApplyUnchecked(offer);
      ASSERT_EQ(x.CurrentPlayer(), answerer);
      for (const char* spec : kTraders) {
        const Action a = Decide(spec, x, seed);
        EXPECT_EQ(x.CheckAction(a), "") << spec;
        if (in_reach) {
          ++checked;
          EXPECT_EQ(a.type, ActionType::kTradeDecline) << spec << " " << ActionToString(a) << " seed " << seed;
        } else if (a.type == ActionType::kTradeAccept) {
          ++accepted;
        }
      }
    }
  }
  // The control: the same offers are taken when nobody is near a win, so the
  // declines above are the limit's doing.
  EXPECT_GT(checked, 8);
  EXPECT_GT(accepted, checked / 2);
}

// A bot's own offer goes to nobody within a turn of a win, and a trade it
// offered is not confirmed with him: the close cancels it.
TEST(Trading, NeverOffersToOrConfirmsWithAnOpponentNearAWin) {
  int offers = 0, to_near = 0, confirmed = 0, cancelled = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    State base = ActionPhase(seed, 2);
    const int me = base.current_seat();
    const CardCounts hand = Cards({{kBrick, 2}, {kLumber, 2}, {kWool, 2}, {kOre, 2}});
    SetHand(&base, me, hand);
    SetWinTarget(&base, me, false);
    ASSERT_EQ(base.Validate(), "");
    const Action offer = Decide("heuristic", base, seed);
    if (offer.type != ActionType::kTradeOffer) continue;
    ++offers;
    EXPECT_TRUE(hand.Contains(offer.give.ToCounts()));
    for (int near = 0; near < base.num_seats(); ++near) {
      if (near == me || !((offer.addressees >> near) & 1)) continue;
      // The same position with this addressee near a win: he is left out.
      State x = base;
      SetWinTarget(&x, near, true);
      if (x.options().victory_points == 0) continue;
      const Action again = Decide("heuristic", x, seed);
      ++to_near;
      if (again.type == ActionType::kTradeOffer) {
        EXPECT_FALSE((again.addressees >> near) & 1) << ActionToString(again);
      }
      // He accepts the first offer, made before he came near; the others
      // decline; the offerer's close must not confirm with him.
      if (!x.player(near).hand.Contains(offer.want.ToCounts())) {
        CardCounts h = x.player(near).hand;
        for (int c = 0; c < kNumCardTypes; ++c) h[c] = uint8_t(std::max<int>(h[c], offer.want.Get(c)));
        SetHand(&x, near, h);
      }
      x.ApplyUnchecked(offer);
      while (x.CurrentPlayer() != me) {
        const Action answer =
            Action::Make(x.CurrentPlayer() == near ? ActionType::kTradeAccept : ActionType::kTradeDecline);
        ASSERT_EQ(x.CheckAction(answer), "");
        x.ApplyUnchecked(answer);
      }
      const Action close = Decide("heuristic", x, seed);
      EXPECT_EQ(x.CheckAction(close), "");
      EXPECT_NE(close, Action::Make(ActionType::kTradeConfirm, near));
      (close.type == ActionType::kTradeCancel ? cancelled : confirmed) += 1;
    }
  }
  EXPECT_GT(offers, 5) << "the bot should make offers in its action phase";
  EXPECT_GT(to_near, 5);
  EXPECT_EQ(confirmed, 0);
}

// An answerer who lacks the cards asked for cannot accept (the engine does not
// list it), and what it returns instead passes the engine's check; with an
// empty hand a bot makes no offer.
TEST(Trading, NeverOffersOrAcceptsWhatItCannotPay) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    State s = ActionPhase(seed, 1);
    const int offerer = s.current_seat(), answerer = (offerer + 2) % s.num_seats();
    SetWinTarget(&s, offerer, false);
    SetHand(&s, offerer, Cards({{kOre, 2}, {kGrain, 2}}));
    SetHand(&s, answerer, Cards({{kBrick, 1}, {kWool, 1}}));
    State x = s;
    x.ApplyUnchecked(Action::TradeOffer(Cards({{kOre, 2}, {kGrain, 2}}), Cards({{kLumber, 1}}), 1 << answerer));
    for (const char* spec : kTraders) {
      const Action a = Decide(spec, x, seed);
      EXPECT_NE(a.type, ActionType::kTradeAccept) << spec;
      EXPECT_EQ(x.CheckAction(a), "") << spec << " " << ActionToString(a);
      if (a.type == ActionType::kTradeCounter) {
        EXPECT_TRUE(x.player(answerer).hand.Contains(a.give.ToCounts()));
      }
    }
    // Nothing to give: no offer.
    State empty = s;
    SetHand(&empty, offerer, CardCounts{});
    ASSERT_EQ(empty.Validate(), "");
    for (const char* spec : kTraders) EXPECT_NE(Decide(spec, empty, seed).type, ActionType::kTradeOffer) << spec;
  }
}

// Games of four trading bots: offers, counters and trades happen, and every
// one of them passed the engine's check (PlayGame stops on an illegal action).
// With trade=answer a bot accepts or declines but never offers or counters;
// with trade=0 it neither trades.
TEST(Trading, SelfPlayOffersCountersAndTrades) {
  struct Expect {
    const char* spec;
    bool offers;
  };
  for (const Expect& e :
       {Expect{"heuristic", true}, Expect{"heuristic:trade=answer", false}, Expect{"heuristic:trade=0", false}}) {
    int offers = 0, counters = 0, trades = 0;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      std::string error;
      std::vector<std::unique_ptr<Bot>> bots;
      std::vector<Seat> seats(4);
      for (int seat = 0; seat < 4; ++seat) {
        bots.push_back(MakeBot(e.spec, &error));
        seats[size_t(seat)].bot = bots.back().get();
        seats[size_t(seat)].seed = seed * 10 + uint64_t(seat);
      }
      GameConfig config;
      config.board = RandomBoard(seed);
      const GameOutcome out = PlayGame(config, seats, seed);
      EXPECT_EQ(out.error, "") << e.spec;
      for (int seat = 0; seat < 4; ++seat) {
        offers += out.offers[size_t(seat)];
        counters += out.counters[size_t(seat)];
        trades += out.trades[size_t(seat)];
      }
    }
    if (e.offers) {
      EXPECT_GT(offers, 10) << e.spec;
      EXPECT_GT(counters, 0) << e.spec;
      EXPECT_GT(trades, 0) << e.spec;
    } else {
      EXPECT_EQ(offers, 0) << e.spec;
      EXPECT_EQ(counters, 0) << e.spec;
    }
  }
}

// A counter (TRD-3 step 2) is a new price from the answerer: he asks for what
// he misses and gives only cards he holds, and the offerer may confirm it.
TEST(Trading, CountersAreLegalAndConfirmable) {
  int counters = 0;
  for (uint64_t seed = 1; seed <= 30 && counters < 5; ++seed) {
    State s = ActionPhase(seed, 3);
    const int offerer = s.current_seat(), answerer = (offerer + 1) % s.num_seats();
    SetWinTarget(&s, offerer, false);
    // The offerer asks for the answerer's grain for wool; the answerer holds
    // grain and ore but misses one ore for a city, which the offerer holds.
    SetHand(&s, offerer, Cards({{kWool, 2}, {kOre, 2}, {kBrick, 1}}));
    SetHand(&s, answerer, Cards({{kGrain, 3}, {kOre, 2}}));
    State x = s;
    x.ApplyUnchecked(Action::TradeOffer(Cards({{kWool, 1}}), Cards({{kGrain, 1}}), 1 << answerer));
    const Action a = Decide("heuristic", x, seed);
    ASSERT_EQ(x.CheckAction(a), "") << ActionToString(a);
    // Answering only (trade=answer), the same bot never counters.
    EXPECT_NE(Decide("heuristic:trade=answer", x, seed).type, ActionType::kTradeCounter);
    if (a.type != ActionType::kTradeCounter) continue;
    ++counters;
    EXPECT_TRUE(x.player(answerer).hand.Contains(a.give.ToCounts()));
    x.ApplyUnchecked(a);
    ASSERT_EQ(x.CurrentPlayer(), offerer);
    const Action confirm = Action::Make(ActionType::kTradeConfirm, answerer);
    EXPECT_EQ(x.CheckAction(confirm), "") << "the counter should be confirmable";
  }
  EXPECT_GT(counters, 0) << "no position gave a counter";
}

}  // namespace
}  // namespace metropolis::bots
