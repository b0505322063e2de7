#include "engine/view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "engine/splitmix.h"
#include "engine/state_editor.h"

namespace metropolis {
namespace {

GameConfig DefaultConfig(int seats = 4) {
  GameConfig config;
  config.num_seats = seats;
  config.board = DefaultBoard();
  return config;
}

State NewState(const GameConfig& config) {
  State s(config);
  std::string error;
  EXPECT_TRUE(NewGame(config, &s, &error)) << error;
  return s;
}

// splitmix64, so that the test's games are the same everywhere.
struct Rng {
  uint64_t x;
  uint64_t Next() { return SplitMixNext(&x); }
  int Below(int n) { return int(Next() % uint64_t(n)); }
  double Unit() { return double(Next() >> 11) / double(uint64_t(1) << 53); }
};

// A random offer or counter from `seat`'s hand: one card given, one wanted.
bool RandomTrade(const State& s, int seat, Rng& rng, Action* out, bool counter) {
  const CardCounts& hand = s.player(seat).hand;
  if (hand.Total() == 0) return false;
  int give = rng.Below(kNumCardTypes);
  while (hand[give] == 0) give = (give + 1) % kNumCardTypes;
  int want = rng.Below(kNumCardTypes - 1);
  if (want >= give) ++want;
  CardCounts g, w;
  g[give] = uint8_t(1 + rng.Below(std::min<int>(2, hand[give])));
  w[want] = uint8_t(1 + rng.Below(2));
  if (counter) {
    *out = Action::TradeCounter(g, w);
    return true;
  }
  const int opponents = ((1 << s.num_seats()) - 1) & ~(1 << seat);
  int mask = 0;
  while (mask == 0) mask = rng.Below(16) & opponents;
  *out = Action::TradeOffer(g, w, mask);
  return true;
}

// One step of a random game that builds rather than ends turns, and trades
// now and then so that trades show up in the event streams.
Action RandomAction(const State& s, Rng& rng) {
  if (s.IsChanceNode()) return s.SampleChance(rng.Unit());
  const int seat = s.CurrentPlayer();
  Action trade;
  const bool answering = s.pending_size() > 0 && s.pending(s.pending_size() - 1).kind == PendingKind::kTradeAnswer;
  const bool may_offer = s.pending_size() == 0 && s.phase() == Phase::kAction;
  if ((may_offer && rng.Below(8) == 0) || (answering && rng.Below(3) == 0)) {
    if (RandomTrade(s, seat, rng, &trade, answering) && s.CheckAction(trade).empty()) return trade;
  }
  const std::vector<Action> legal = s.LegalActions();
  std::vector<Action> preferred;
  for (const Action& a : legal)
    if (a.type != ActionType::kEndTurn && a.type != ActionType::kTradeCancel) preferred.push_back(a);
  if (!preferred.empty() && rng.Below(5) != 0) return preferred[rng.Below(int(preferred.size()))];
  return legal[rng.Below(int(legal.size()))];
}

void Apply(State* s, const Action& a, std::vector<Event>* events) {
  const std::string error = s->Apply(a, events);
  ASSERT_EQ(error, "") << ActionToString(a);
}

// Plays `steps` random actions from a fresh game.
State PlayRandom(uint64_t seed, int steps, const GameConfig& config = DefaultConfig()) {
  State s = NewState(config);
  Rng rng{seed};
  for (int i = 0; i < steps && !s.IsTerminal(); ++i) {
    std::vector<Event> events;
    Apply(&s, RandomAction(s, rng), &events);
  }
  return s;
}

std::vector<int> Viewers(const State& s) {
  std::vector<int> v = {kNoSeat};
  for (int p = 0; p < s.num_seats(); ++p) v.push_back(p);
  return v;
}

// The sampler's two promises: a valid state, and the same view of it.
void ExpectSamplesReproduce(const State& s, int viewer, const KnowledgeTracker* knowledge, uint64_t seed,
                            const std::string& where) {
  const View view = MakeView(s, viewer, knowledge);
  State sample = s;
  std::string error;
  ASSERT_TRUE(SampleState(view, seed, &sample, &error)) << where << ": " << error;
  EXPECT_EQ(sample.Validate(), "") << where;
  EXPECT_TRUE(MakeView(sample, viewer, knowledge) == view) << where << " seed " << seed;
  for (int p = 0; p < s.num_seats(); ++p) {
    EXPECT_EQ(sample.player(p).hand.Total(), s.player(p).hand.Total()) << where;
    EXPECT_EQ(sample.player(p).num_progress, s.player(p).num_progress) << where;
    if (view.Hidden(p)) {
      EXPECT_TRUE(sample.player(p).hand.Contains(view.known_hand[p])) << where << " seat " << p;
    }
  }
}

TEST(ViewTest, FreshGameHidesNothingButShowsNothingEither) {
  const State s = NewState(DefaultConfig());
  for (int viewer : Viewers(s)) {
    const View v = MakeView(s, viewer);
    EXPECT_EQ(v.viewer, viewer);
    for (int p = 0; p < s.num_seats(); ++p) {
      EXPECT_EQ(v.hand_total[p], 0);
      EXPECT_EQ(v.progress_count[p], 0);
    }
    // The whole supply is in the bank, which the view shows as non-empty only.
    for (int c = 0; c < kNumCardTypes; ++c) {
      EXPECT_EQ(v.state.bank()[c], 1);
      EXPECT_EQ(v.unplaced_cards[c], s.bank()[c]);
    }
    for (int t = 0; t < kNumTracks; ++t) EXPECT_EQ(v.state.deck(t).Size(), s.deck(t).Size());
    // Seat 0 places first (SET-2): only it gets legal actions.
    if (viewer == s.CurrentPlayer())
      EXPECT_EQ(v.LegalActions(), s.LegalActions());
    else
      EXPECT_TRUE(v.LegalActions().empty());
    ExpectSamplesReproduce(s, viewer, nullptr, 1, "fresh game");
  }
}

TEST(ViewTest, DecksShowSizesAndTheVictoryCardsOnly) {  // RULES.md 18, PD-4
  const State s = NewState(DefaultConfig());
  const View v = MakeView(s, 0);
  for (int t = 0; t < kNumTracks; ++t) {
    const ProgressDeck& d = v.state.deck(t);
    EXPECT_EQ(d.unseen_total, s.deck(t).unseen_total);
    for (int k = 0; k < TrackNumKinds(t); ++k) {
      const int card = TrackFirstCard(t) + k;
      EXPECT_EQ(d.unseen[k], IsVictoryPointCard(card) ? 1 : 0) << ProgressCardName(card);
      if (!IsVictoryPointCard(card)) {
        EXPECT_EQ(v.unplaced_progress[card], ProgressCardCount(card, s.options()));
      }
    }
  }
}

// A position in the action phase with cards in every hand, some progress
// cards and a card each seat discarded face down (PC-4).
State HandMadePosition() {
  State s = PlayRandom(11, 40);
  EXPECT_NE(s.phase(), Phase::kSetup);
  StateEditor ed(&s);
  ed.pending_size() = 0;
  for (auto& p : ed.pending()) p = Pending{};
  ed.trade() = TradeState{};
  ed.phase() = Phase::kAction;
  ed.current() = 0;
  const std::array<CardCounts, 4> hands = {{
      {{2, 1, 0, 1, 0, 0, 0, 0}},
      {{0, 0, 1, 0, 3, 1, 0, 0}},
      {{1, 2, 0, 0, 0, 0, 2, 0}},
      {{0, 0, 0, 0, 0, 0, 0, 0}},
  }};
  for (int c = 0; c < kNumCardTypes; ++c) ed.bank()[c] = int16_t(IsResource(c) ? 19 : 12);
  for (int p = 0; p < 4; ++p) {
    ed.player(p).hand = hands[p];
    for (int c = 0; c < kNumCardTypes; ++c) ed.bank()[c] = int16_t(ed.bank()[c] - hands[p][c]);
  }
  // Every wool sits with seat 1, so the bank's wool stack is empty.
  ed.bank()[kWool] = 0;
  ed.player(1).hand[kWool] = 19;
  // Progress: seat 1 holds a Spy and a Merchant, seat 0 a Crane; seat 2 put a
  // Bishop back under the politics deck.
  auto take = [&](int card) {
    ProgressDeck& d = ed.deck(ProgressTrack(card));
    --d.unseen[card - TrackFirstCard(ProgressTrack(card))];
    --d.unseen_total;
  };
  for (int card : {kSpy, kMerchant, kCrane, kBishop}) take(card);
  ed.player(1).progress = {kSpy, kMerchant, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  ed.player(1).num_progress = 2;
  ed.player(0).progress = {kCrane, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  ed.player(0).num_progress = 1;
  ProgressDeck& politics = ed.deck(kPolitics);
  politics.returned[politics.head] = kBishop;
  politics.returned_hidden[politics.head] = 2 + 1;
  politics.size = 1;
  ed.RecomputeDerived();
  return s;
}

TEST(ViewTest, HandMadePositionMasksWhatTheSeatMayNotSee) {
  const State s = HandMadePosition();
  ASSERT_EQ(s.Validate(), "");
  const View v = MakeView(s, 0);
  EXPECT_EQ(v.state.player(0).hand, s.player(0).hand);  // own cards stay
  EXPECT_EQ(v.state.player(0).num_progress, 1);
  for (int p = 1; p < 4; ++p) {
    EXPECT_EQ(v.state.player(p).hand.Total(), 0);
    EXPECT_EQ(v.state.player(p).num_progress, 0);
    EXPECT_EQ(v.hand_total[p], s.player(p).hand.Total());
    EXPECT_EQ(v.progress_count[p], s.player(p).num_progress);
  }
  EXPECT_EQ(v.state.bank()[kWool], 0);
  EXPECT_EQ(v.state.bank()[kOre], 1);
  EXPECT_EQ(v.state.deck(kPolitics).returned[0], kHiddenCard);  // seat 2's face-down card
  EXPECT_EQ(MakeView(s, 2).state.deck(kPolitics).returned[0], kBishop);
  EXPECT_EQ(v.LegalActions(), s.LegalActions());
  EXPECT_TRUE(MakeView(s, 1).LegalActions().empty());
}

TEST(ViewTest, TrackerKnowsWhatEventsShowed) {
  // Seat 1's 3 ore and 1 wool of HandMadePosition, as seat 0 learns them.
  const State s = HandMadePosition();
  KnowledgeTracker k(0);
  k.Reset(s);
  auto event = [](EventType t, int seat, int a, int b, int other = -1) {
    Event e;
    e.type = t;
    e.seat = int8_t(seat);
    e.a = uint8_t(a);
    e.b = uint8_t(b);
    e.other = int8_t(other);
    return e;
  };
  k.Observe(event(EventType::kProduced, 1, 3, kOre));
  k.Observe(event(EventType::kProduced, 1, 2, kBrick));
  EXPECT_EQ(k.known_hand(1)[kOre], 3);
  EXPECT_EQ(k.known_hand(1)[kBrick], 2);
  // Seat 1 builds a road (brick + lumber, BLD-1, paid as kPaid): the brick is
  // gone, the lumber came from cards seat 0 did not know.
  Event road = event(EventType::kAction, 1, 0, 0);
  road.action = Action::BuildRoad(5);
  k.Observe(road);
  k.Observe(event(EventType::kPaid, 1, 1, kBrick));
  k.Observe(event(EventType::kPaid, 1, 1, kLumber));
  EXPECT_EQ(k.known_hand(1)[kBrick], 1);
  EXPECT_EQ(k.known_hand(1)[kLumber], 0);
  // Seat 2 robs seat 1; seat 0 does not see the card (ROB-3): it may have
  // been the brick or an ore, so one of each is no longer certain.
  Event steal = event(EventType::kStole, 2, 0, kBrick, 1);
  steal.private_to = (1 << 2) | (1 << 1);
  k.Observe(MaskEvent(steal, 0));
  EXPECT_EQ(k.known_hand(1)[kBrick], 0);
  EXPECT_EQ(k.known_hand(1)[kOre], 2);
  EXPECT_EQ(k.known_hand(2).Total(), 0);
  // Seat 0 robs seat 1 itself and sees an ore.
  Event own = event(EventType::kStole, 0, 0, kOre, 1);
  own.private_to = (1 << 0) | (1 << 1);
  k.Observe(MaskEvent(own, 0));
  EXPECT_EQ(k.known_hand(1)[kOre], 1);
  // Seat 2 accepts an offer of seat 0 that wants 1 coin: he holds it (TRD-3).
  Event offer = event(EventType::kAction, 0, 0, 0);
  CardCounts give, want;
  give[kBrick] = 1;
  want[kCoin] = 1;
  offer.action = Action::TradeOffer(give, want, 1 << 2);
  k.Observe(offer);
  Event accept = event(EventType::kAction, 2, 0, 0);
  accept.action = Action::Make(ActionType::kTradeAccept);
  k.Observe(accept);
  EXPECT_EQ(k.known_hand(2)[kCoin], 1);
  // The trade executes: the coin moves to seat 0, the brick to seat 2.
  Event done = event(EventType::kTradeExecuted, 0, 0, 0, 2);
  done.action.give = PackedCards::From(give);
  done.action.want = PackedCards::From(want);
  k.Observe(done);
  EXPECT_EQ(k.known_hand(2)[kCoin], 0);
  EXPECT_EQ(k.known_hand(2)[kBrick], 1);
  EXPECT_EQ(k.known_hand(0).Total(), 0);  // the viewer's own hand is in the state
  // A spectator sees neither steal's card.
  KnowledgeTracker spectator(kNoSeat);
  spectator.Reset(s);
  spectator.Observe(event(EventType::kProduced, 1, 1, kOre));
  spectator.Observe(MaskEvent(own, kNoSeat));
  EXPECT_EQ(spectator.known_hand(1).Total(), 0);
  EXPECT_EQ(spectator.known_hand(0).Total(), 0);
}

Event Ev(EventType t, int seat, int a, int b, int other = -1, int private_to = 0) {
  Event e;
  e.type = t;
  e.seat = int8_t(seat);
  e.a = uint8_t(a);
  e.b = uint8_t(b);
  e.other = int8_t(other);
  e.private_to = uint8_t(private_to);
  return e;
}

Event Act(int seat, const Action& a, int private_to = 0) {
  Event e = Ev(EventType::kAction, seat, 0, 0, -1, private_to);
  e.action = a;
  return e;
}

// Seats 0 (the viewer) and 2 see the same game; seat 1 holds cards both learnt.
TEST(ViewTest, TrackerReadsHandedOverCards) {  // C-P9, C-T2, C-T5, RULES.md 18
  const State s = HandMadePosition();
  KnowledgeTracker k0(0), k2(2);
  k0.Reset(s);
  k2.Reset(s);
  auto both = [&](const Event& e) {
    k0.Observe(MaskEvent(e, 0));
    k2.Observe(MaskEvent(e, 2));
  };
  both(Ev(EventType::kProduced, 1, 3, kOre));
  both(Ev(EventType::kProduced, 1, 2, kWool));
  // A Wedding gift from seat 1 to seat 2: seat 2 sees the ore, seat 0 only
  // that one card left, which may have been an ore or a wool.
  both(Act(1, Action::Make(ActionType::kGiveCard, kOre), 0b0110));
  both(Ev(EventType::kCardGiven, 1, 1, kOre, 2, 0b0110));
  EXPECT_EQ(k2.known_hand(1)[kOre], 2);
  EXPECT_EQ(k2.known_hand(1)[kWool], 2);
  EXPECT_EQ(k0.known_hand(1)[kOre], 2);
  EXPECT_EQ(k0.known_hand(1)[kWool], 1);
  EXPECT_EQ(k0.known_hand(2)[kOre], 0);  // seat 2's new card is unknown to seat 0
  // A Resource Monopoly is public (C-T5): seat 0 takes 2 ore from seat 1.
  both(Act(0, Action::Play(kResourceMonopoly, kOre)));
  both(Ev(EventType::kCardGiven, 1, 2, kOre, 0));
  EXPECT_EQ(k2.known_hand(1)[kOre], 0);
  EXPECT_EQ(k2.known_hand(0)[kOre], 2);
  // Seat 2's Master Merchant on seat 1 (C-T2): he sees the hand.
  both(Act(2, Action::Play(kMasterMerchant, 1)));
  both(Ev(EventType::kHandSeen, 2, 4, kWool, 1, 0b0100));
  both(Ev(EventType::kHandSeen, 2, 1, kCloth, 1, 0b0100));
  EXPECT_EQ(k2.known_hand(1)[kWool], 4);
  EXPECT_EQ(k2.known_hand(1)[kCloth], 1);
  EXPECT_EQ(k0.known_hand(1)[kCloth], 0);
  both(Act(2, Action::Make(ActionType::kTakeCard, kCloth), 0b0110));
  both(Ev(EventType::kCardGiven, 1, 1, kCloth, 2, 0b0110));
  EXPECT_EQ(k2.known_hand(1)[kCloth], 0);
  EXPECT_EQ(k0.known_hand(2)[kCloth], 0);
  EXPECT_EQ(k0.known_hand(1)[kWool], 0);  // 1 wool known, one unseen card left
  // A 7-discard is public, whether or not a kPaid repeats it.
  both(Act(1, Action::Make(ActionType::kDiscard, kWool)));
  both(Ev(EventType::kPaid, 1, 1, kWool));
  EXPECT_EQ(k2.known_hand(1)[kWool], 3);
  both(Act(1, Action::Make(ActionType::kDiscard, kWool)));
  EXPECT_EQ(k2.known_hand(1)[kWool], 2);
}

TEST(ViewTest, TrackerReadsTheCommercialHarbor) {  // C-T1
  const State s = HandMadePosition();
  KnowledgeTracker k0(0);
  k0.Reset(s);
  k0.Observe(Ev(EventType::kProduced, 1, 2, kCoin));
  // Seat 3 offers seat 1 a grain (public); seat 1 returns a commodity of his
  // choice. Seat 0 sees the grain go to seat 1 and one unseen card come back.
  k0.Observe(Act(3, Action::Make(ActionType::kHarborOffer, 1, kGrain)));
  k0.Observe(MaskEvent(Act(1, Action::Make(ActionType::kGiveCard, kCoin), 0b1010), 0));
  k0.Observe(MaskEvent(Ev(EventType::kCardGiven, 3, 1, kGrain, 1, 0b1010), 0));
  k0.Observe(MaskEvent(Ev(EventType::kCardGiven, 1, 1, kCoin, 3, 0b1010), 0));
  EXPECT_EQ(k0.known_hand(1)[kGrain], 1);
  EXPECT_EQ(k0.known_hand(1)[kCoin], 1);
  EXPECT_EQ(k0.known_hand(3)[kGrain], 0);
}

TEST(ViewTest, TrackerReadsTheSpy) {  // C-P7
  const State s = HandMadePosition();
  KnowledgeTracker k0(0), k1(1), k3(3);
  for (KnowledgeTracker* k : {&k0, &k1, &k3}) k->Reset(s);
  auto all = [&](const Event& e) {
    for (KnowledgeTracker* k : {&k0, &k1, &k3}) k->Observe(MaskEvent(e, k->viewer()));
  };
  // Seat 0 spies on seat 1's warlord, warlord and smith and takes a warlord.
  all(Act(0, Action::Play(kSpy, 1)));
  for (int card : {kSmith, kWarlord, kWarlord}) all(Ev(EventType::kProgressSeen, 0, 0, card, 1, 0b0001));
  EXPECT_EQ(k0.known_progress(1)[kWarlord], 2);
  EXPECT_EQ(k0.known_progress(1)[kSmith], 1);
  EXPECT_EQ(k3.known_progress(1)[kWarlord], 0);
  all(Act(0, Action::Make(ActionType::kTakeProgress, kWarlord), 0b0011));
  all(Ev(EventType::kProgressTaken, 0, 0, kWarlord, 1, 0b0011));
  EXPECT_EQ(k0.known_progress(1)[kWarlord], 1);
  EXPECT_EQ(k1.known_progress(0)[kWarlord], 1);  // the victim knows what he lost
  EXPECT_EQ(k3.known_progress(0)[kWarlord], 0);
  // Seat 1 plays his smith: public (PC-6), so it is no longer known to be there.
  all(Act(1, Action::Play(kSmith)));
  EXPECT_EQ(k0.known_progress(1)[kSmith], 0);
  EXPECT_EQ(k0.known_progress(1)[kWarlord], 1);
  // Seat 1 puts a card back face down: it may have been the warlord.
  all(Act(1, Action::Make(ActionType::kDiscardProgress, kBishop), 0b0010));
  EXPECT_EQ(k0.known_progress(1)[kWarlord], 0);
}

TEST(ViewTest, KnownCardsAreKeptBySampler) {
  const State s = HandMadePosition();  // seat 1: 19 wool, 3 ore, 1 cloth
  KnowledgeTracker k(0);
  k.Reset(s);
  Event e;
  e.type = EventType::kProduced;
  e.seat = 1;
  e.a = 2;
  e.b = kOre;
  k.Observe(e);
  const View v = MakeView(s, 0, &k);
  EXPECT_EQ(v.known_hand[1][kOre], 2);
  for (uint64_t seed = 0; seed < 200; ++seed) {
    State sample = s;
    std::string error;
    ASSERT_TRUE(SampleState(v, seed, &sample, &error)) << error;
    EXPECT_GE(sample.player(1).hand[kOre], 2);
    // The bank shows no wool, so every wool is in a hand (seat 0 has none).
    int wool = 0;
    for (int p = 1; p < 4; ++p) wool += sample.player(p).hand[kWool];
    EXPECT_EQ(wool, 19);
    EXPECT_EQ(sample.player(0).progress, s.player(0).progress);
    EXPECT_TRUE(MakeView(sample, 0, &k) == v) << "seed " << seed;
  }
}

TEST(ViewTest, StatesDifferingInHiddenCardsLookTheSame) {
  const State s = HandMadePosition();
  // Swap a lumber of seat 2 for a cloth of seat 1, and Spy for Saboteur
  // between seat 1's hand and the politics deck.
  State t = s;
  StateEditor ed(&t);
  --ed.player(2).hand[kLumber];
  ++ed.player(2).hand[kCloth];
  --ed.player(1).hand[kCloth];
  ++ed.player(1).hand[kLumber];
  ProgressDeck& politics = ed.deck(kPolitics);
  ++politics.unseen[kSpy - kBishop];
  --politics.unseen[kSaboteur - kBishop];
  ed.player(1).progress = {kSaboteur, kMerchant, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  // And seat 2's face-down Bishop was a Wedding.
  ++politics.unseen[kBishop - kBishop];
  --politics.unseen[kWedding - kBishop];
  politics.returned[politics.head] = kWedding;
  ASSERT_EQ(t.Validate(), "");
  ASSERT_FALSE(s == t);
  EXPECT_TRUE(MakeView(s, 0) == MakeView(t, 0));
  EXPECT_TRUE(MakeView(s, 3) == MakeView(t, 3));
  EXPECT_TRUE(MakeView(s, kNoSeat) == MakeView(t, kNoSeat));
  EXPECT_FALSE(MakeView(s, 1) == MakeView(t, 1));
  EXPECT_FALSE(MakeView(s, 2) == MakeView(t, 2));
}

TEST(ViewTest, SpectatorSeesNoHandIdentities) {
  const State s = HandMadePosition();
  const View v = MakeView(s, kNoSeat);
  for (int p = 0; p < s.num_seats(); ++p) {
    EXPECT_EQ(v.state.player(p).hand.Total(), 0);
    EXPECT_EQ(v.state.player(p).num_progress, 0);
    EXPECT_EQ(v.hand_total[p], s.player(p).hand.Total());
  }
  EXPECT_EQ(v.state.deck(kPolitics).returned[0], kHiddenCard);
  EXPECT_TRUE(v.LegalActions().empty());
  for (uint64_t seed = 0; seed < 50; ++seed) ExpectSamplesReproduce(s, kNoSeat, nullptr, seed, "spectator");
}

TEST(ViewTest, SamplerIsDeterministicAndVaries) {
  const State s = PlayRandom(5, 400);
  const View v = MakeView(s, 1);
  std::set<std::vector<int>> hands;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    State a = s, b = s;
    std::string error;
    ASSERT_TRUE(SampleState(v, seed, &a, &error)) << error;
    ASSERT_TRUE(SampleState(v, seed, &b, &error)) << error;
    EXPECT_TRUE(a == b);
    std::vector<int> key;
    for (int p = 0; p < s.num_seats(); ++p)
      for (int c = 0; c < kNumCardTypes; ++c) key.push_back(a.player(p).hand[c]);
    hands.insert(key);
    ExpectSamplesReproduce(s, 1, nullptr, seed, "after 400 random actions");
  }
  int hidden = 0;
  for (int p = 0; p < s.num_seats(); ++p)
    if (p != 1) hidden += s.player(p).hand.Total();
  if (hidden >= 2) {
    EXPECT_GT(hands.size(), 1u);
  }
}

// HandMadePosition with seat 0 in the middle of playing `card`: the card out of
// its deck and waiting to go back under it (PC-6), `step` on top.
State Playing(int card, const Pending& step) {
  State s = HandMadePosition();
  StateEditor ed(&s);
  ProgressDeck& d = ed.deck(ProgressTrack(card));
  --d.unseen[card - TrackFirstCard(ProgressTrack(card))];
  --d.unseen_total;
  ed.pending()[0] = Pending{PendingKind::kStepReturnProgress, 0, uint8_t(card), 0, 0};
  ed.pending()[1] = step;
  ed.pending_size() = 2;
  EXPECT_EQ(s.Validate(), "");
  return s;
}

// The decisions that show the deciding seat hidden cards show them to him
// only, tracked or not, and his samples keep them (RULES.md 18).
TEST(ViewTest, SpyShowsTheVictimsProgressHandToThePlayerOnly) {  // C-P7
  const State s = Playing(kSpy, Pending{PendingKind::kSpyTake, 0, 1, 0, 0});
  const View v0 = MakeView(s, 0);
  EXPECT_EQ(v0.known_progress[1][kSpy], 1);
  EXPECT_EQ(v0.known_progress[1][kMerchant], 1);
  EXPECT_EQ(v0.LegalActions(), s.LegalActions());
  for (int viewer : {kNoSeat, 1, 2, 3}) {
    const View v = MakeView(s, viewer);
    for (int p = 0; p < 4; ++p)
      EXPECT_TRUE(!v.Hidden(p) || v.known_progress[p] == ProgressCounts{}) << viewer << " seat " << p;
  }
  for (int viewer : Viewers(s))
    for (uint64_t seed : {1, 2, 3}) ExpectSamplesReproduce(s, viewer, nullptr, seed, "spy");
}

TEST(ViewTest, MasterMerchantShowsTheVictimsHandToThePlayerOnly) {  // C-T2
  const State s = Playing(kMasterMerchant, Pending{PendingKind::kMasterMerchantTake, 0, 1, 2, 0});
  EXPECT_EQ(MakeView(s, 0).known_hand[1], s.player(1).hand);
  for (int viewer : {kNoSeat, 2, 3}) EXPECT_EQ(MakeView(s, viewer).known_hand[1].Total(), 0) << viewer;
  for (int viewer : Viewers(s))
    for (uint64_t seed : {1, 2, 3}) ExpectSamplesReproduce(s, viewer, nullptr, seed, "master merchant");
}

TEST(ViewTest, DefenderTieShowsTheChosenDeckToThePlayerOnly) {  // BAR-6, D04
  State s = HandMadePosition();
  StateEditor ed(&s);
  ed.options().defender_tie_reward = DefenderTieReward::kAnyCardOfChosenDeck;
  ed.pending()[0] = Pending{PendingKind::kDefenderTake, 0, kPolitics, 0, 0};
  ed.pending_size() = 1;
  ASSERT_EQ(s.Validate(), "");
  const View v0 = MakeView(s, 0);
  EXPECT_TRUE(v0.state.deck(kPolitics) == s.deck(kPolitics));  // seat 2's face-down bishop included
  EXPECT_EQ(v0.LegalActions(), s.LegalActions());
  EXPECT_FALSE(v0.state.deck(kScience) == s.deck(kScience));  // the others stay masked
  EXPECT_FALSE(MakeView(s, 1).state.deck(kPolitics) == s.deck(kPolitics));
  for (int viewer : Viewers(s))
    for (uint64_t seed : {1, 2, 3}) ExpectSamplesReproduce(s, viewer, nullptr, seed, "defender tie");
}

TEST(ViewTest, TurnEffectsArePublic) {  // C-S2, C-T4, C-T1
  State s = HandMadePosition();
  TurnEffects& e = StateEditor(&s).effects();
  e.crane_discounts = 1;
  e.cranes_played = 1;
  e.fleet_cards = 1 << kOre;
  e.harbor_partners = 1 << 2;
  for (int viewer : Viewers(s)) {
    EXPECT_TRUE(MakeView(s, viewer).state.effects() == s.effects());
    ExpectSamplesReproduce(s, viewer, nullptr, 5, "effects");
  }
}

TEST(ViewTest, OpenTradeShowsWhoHoldsWhat) {  // TRD-3
  State s = HandMadePosition();
  CardCounts give, want;
  give[kBrick] = 1;
  want[kCloth] = 1;
  std::vector<Event> events;
  Apply(&s, Action::TradeOffer(give, want, 1 << 1), &events);
  ASSERT_EQ(s.CurrentPlayer(), 1);
  Apply(&s, Action::Make(ActionType::kTradeAccept), &events);
  ASSERT_EQ(s.CurrentPlayer(), 0);
  // Even without a tracker, seat 0 knows seat 1 holds the cloth he accepted
  // to give, and may confirm.
  const View v = MakeView(s, 0);
  EXPECT_EQ(v.known_hand[1][kCloth], 1);
  EXPECT_EQ(v.LegalActions(), s.LegalActions());
  EXPECT_NE(std::find(v.LegalActions().begin(), v.LegalActions().end(), Action::Make(ActionType::kTradeConfirm, 1)),
            v.LegalActions().end());
  for (uint64_t seed = 0; seed < 50; ++seed) ExpectSamplesReproduce(s, 0, nullptr, seed, "open trade");
  // Seat 2 sees the same, and that seat 0 holds the brick it offered.
  EXPECT_EQ(MakeView(s, 2).known_hand[0][kBrick], 1);
}

TEST(ViewTest, InconsistentViewIsRefused) {
  const State s = HandMadePosition();
  View v = MakeView(s, 0);
  v.known_hand[1][kCoin] = 5;  // more coin than there are unplaced
  v.unplaced_cards[kCoin] = 2;
  State out = s;
  std::string error;
  EXPECT_FALSE(SampleState(v, 1, &out, &error));
  EXPECT_NE(error.find("coin"), std::string::npos) << error;
  EXPECT_TRUE(out == s);
}

// Random games, every seat and a spectator: the tracker never claims a card
// that is not there, every sample is valid and gives the same view back.
struct GameCounts {
  int trades = 0, steals = 0, face_down = 0, plays = 0, handed_over = 0, looks = 0;
};

// Non-VP progress cards of `p` per kind.
ProgressCounts ProgressHand(const PlayerState& p) {
  ProgressCounts counts{};
  for (int i = 0; i < p.num_progress; ++i) ++counts[p.progress[i]];
  return counts;
}

void RunRandomGames(const GameConfig& config, int games, int max_steps, int sample_every, GameCounts* out = nullptr) {
  GameCounts local;
  GameCounts& counts = out != nullptr ? *out : local;
  int& trades = counts.trades;
  int& steals = counts.steals;
  int& face_down = counts.face_down;
  for (int g = 0; g < games; ++g) {
    State s = NewState(config);
    Rng rng{uint64_t(1000 + g)};
    std::vector<KnowledgeTracker> trackers;
    for (int viewer : Viewers(s)) {
      trackers.emplace_back(viewer);
      trackers.back().Reset(s);
    }
    for (int step = 0; step < max_steps && !s.IsTerminal(); ++step) {
      const Action a = RandomAction(s, rng);
      std::vector<Event> events;
      ASSERT_EQ(s.Apply(a, &events), "") << "game " << g << " step " << step;
      for (const Event& e : events) {
        trades += e.type == EventType::kTradeExecuted;
        steals += e.type == EventType::kStole;
        face_down += e.type == EventType::kAction && e.action.type == ActionType::kDiscardProgress;
        counts.plays += e.type == EventType::kAction && e.action.type == ActionType::kPlayProgress;
        counts.handed_over += e.type == EventType::kCardGiven && e.private_to != 0;
        counts.looks += e.type == EventType::kProgressSeen || e.type == EventType::kHandSeen;
      }
      for (KnowledgeTracker& k : trackers) {
        for (const Event& e : events) k.Observe(MaskEvent(e, k.viewer()));
        for (int p = 0; p < s.num_seats(); ++p)
          for (int p = 0; p < s.num_seats(); ++p) {
            ASSERT_TRUE(s.player(p).hand.Contains(k.known_hand(p)))
                << "game " << g << " step " << step << " viewer " << k.viewer() << " seat " << p << " after "
                << ActionToString(a);
            const ProgressCounts held = ProgressHand(s.player(p));
            for (int card = 0; card < kNumProgressKinds; ++card)
              ASSERT_LE(k.known_progress(p)[card], held[card])
                  << "game " << g << " step " << step << " viewer " << k.viewer() << " seat " << p << " "
                  << ProgressCardName(card) << " after " << ActionToString(a);
          }
      }
      if (step % sample_every != 0) continue;
      for (const KnowledgeTracker& k : trackers) {
        const std::string where = "game " + std::to_string(g) + " step " + std::to_string(step) + " viewer " +
                                  std::to_string(k.viewer()) + " after " + ActionToString(a);
        // Without a tracker the view knows less, and must still be reproduced.
        ExpectSamplesReproduce(s, k.viewer(), (step / sample_every) % 3 == 0 ? nullptr : &k, rng.Next(), where);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  // The games must reach what the views are about.
  EXPECT_GT(trades, 0);
  EXPECT_GT(steals, 0);
  EXPECT_GT(face_down, 0);
  EXPECT_GT(counts.plays, 0);
}

TEST(ViewTest, RandomGamesFourSeats) {
  GameCounts counts;
  RunRandomGames(DefaultConfig(4), 150, 500, 6, &counts);
  EXPECT_GT(counts.handed_over, 0);
  EXPECT_GT(counts.looks, 0);
}

TEST(ViewTest, RandomGamesThreeSeatsUnlimitedBank) {
  GameConfig config = DefaultConfig(3);
  config.options.bank_limited = false;
  config.options.robber_locked_until_first_attack = false;
  RunRandomGames(config, 60, 500, 6);
}

// The options that change what cards show or take (D04, D10, D15, D02).
TEST(ViewTest, RandomGamesWithCardOptions) {
  GameConfig config = DefaultConfig(4);
  config.options.defender_tie_reward = DefenderTieReward::kAnyCardOfChosenDeck;
  config.options.progress_takes_resources_only = true;
  config.options.progress_hand_limit = ProgressHandLimit::kPlayOrDiscard;
  config.options.robber_locked_until_first_attack = false;
  RunRandomGames(config, 40, 600, 6);
  config.options.saboteur = Saboteur::kSabotageCity;
  config.options.progress_takes_resources_only = false;
  config.options.progress_hand_limit = ProgressHandLimit::kStrictFour;
  RunRandomGames(config, 20, 600, 6);
}

}  // namespace
}  // namespace metropolis
