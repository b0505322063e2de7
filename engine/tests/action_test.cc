#include "engine/action.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/progress.h"

namespace metropolis {
namespace {

using T = ActionType;

struct TypeAndName {
  ActionType type;
  std::string_view name;
};

// The stable encoding of action.h, written out again so that a change to it
// fails here.
constexpr TypeAndName kAllTypes[] = {
    {T::kChanceStartPlayer, "chance_start_player"},
    {T::kChanceDice, "dice"},
    {T::kChanceSteal, "steal"},
    {T::kChanceDraw, "draw"},
    {T::kChanceDev, "dev_card"},
    {T::kRoll, "roll"},
    {T::kEndTurn, "end_turn"},
    {T::kBuildRoad, "build_road"},
    {T::kBuildSettlement, "build_settlement"},
    {T::kBuildCity, "build_city"},
    {T::kBuildWall, "build_wall"},
    {T::kRecruitKnight, "recruit_knight"},
    {T::kActivateKnight, "activate_knight"},
    {T::kPromoteKnight, "promote_knight"},
    {T::kMoveKnight, "move_knight"},
    {T::kDisplaceKnight, "displace_knight"},
    {T::kChaseRobber, "chase_robber"},
    {T::kBuyImprovement, "buy_improvement"},
    {T::kBankTrade, "bank_trade"},
    {T::kMoveRobber, "move_robber"},
    {T::kDiscard, "discard"},
    {T::kRelocateKnight, "relocate_knight"},
    {T::kPillageCity, "pillage_city"},
    {T::kAqueduct, "aqueduct"},
    {T::kPlaceMetropolis, "place_metropolis"},
    {T::kCommitKnight, "commit_knight"},
    {T::kCommitDone, "commit_done"},
    {T::kDiscardProgress, "discard_progress"},
    {T::kDefenderDeck, "defender_deck"},
    {T::kTradeOffer, "offer"},
    {T::kTradeAccept, "accept"},
    {T::kTradeDecline, "decline"},
    {T::kTradeCounter, "counter"},
    {T::kTradeConfirm, "confirm"},
    {T::kTradeCancel, "cancel"},
    {T::kPlayProgress, "play"},
    {T::kProgressStop, "stop"},
    {T::kRemoveKnight, "remove_knight"},
    {T::kPlaceKnight, "place_knight"},
    {T::kTakeProgress, "take_progress"},
    {T::kTakeCard, "take_card"},
    {T::kGiveCard, "give_card"},
    {T::kHarborOffer, "harbor_offer"},
    {T::kRepairCity, "repair_city"},
    {T::kBuyDev, "buy_dev"},
    {T::kPlayDev, "play_dev"},
};

// A valid PLAY_PROGRESS of a random card with random parameters (action.h).
Action RandomPlay(std::mt19937_64& rng) {
  auto below = [&](int n) { return int(rng() % uint64_t(n)); };
  const int card = below(kNumProgressKinds);
  switch (card) {
    case kAlchemist:
      return Action::Play(card, 1 + below(6), 1 + below(6));
    case kEngineer:
    case kMedicine:
    case kIntrigue:
    case kSaboteur:
      return Action::Play(card, below(kNumNodes));
    case kInventor: {
      const int h = below(kNumHexes - 1);
      return Action::Play(card, h, h + 1 + below(kNumHexes - 1 - h));
    }
    case kBishop:
    case kMerchant:
      return Action::Play(card, below(kNumHexes));
    case kDeserter:
    case kSpy:
    case kMasterMerchant:
      return Action::Play(card, below(kMaxSeats));
    case kDiplomat:
      return Action::Play(card, below(kNumEdges));
    case kMerchantFleet:
      return Action::Play(card, below(kNumCardTypes));
    case kResourceMonopoly:
      return Action::Play(card, below(kNumResources));
    case kTradeMonopoly:
      return Action::Play(card, kCloth + below(3));
    default:
      return Action::Play(card);
  }
}

bool IsKnownType(int code) {
  for (const TypeAndName& t : kAllTypes)
    if (int(t.type) == code) return true;
  return false;
}

// A valid action of type `t` with random fields.
Action RandomAction(ActionType t, std::mt19937_64& rng) {
  auto below = [&](int n) { return int(rng() % uint64_t(n)); };
  Action x = Action::Make(t);
  switch (t) {
    case T::kChanceStartPlayer:
    case T::kTradeConfirm:
      x.a = uint8_t(below(kMaxSeats));
      break;
    case T::kChanceDice:
      if (below(4) == 0) {
        x = Action::Dice(0, 0, below(kNumEventFaces));
      } else {
        x = Action::Dice(1 + below(6), 1 + below(6), below(kNumEventFaces));
      }
      break;
    case T::kChanceSteal:
    case T::kDiscard:
    case T::kTakeCard:
    case T::kGiveCard:
      x.a = uint8_t(below(kNumCardTypes));
      break;
    case T::kChanceDraw:
    case T::kDiscardProgress:
    case T::kTakeProgress:
      x.a = uint8_t(below(kNumProgressKinds));
      break;
    case T::kBuildRoad:
      x.a = uint8_t(below(kNumEdges));
      break;
    case T::kBuildSettlement:
    case T::kBuildCity:
    case T::kBuildWall:
    case T::kRecruitKnight:
    case T::kActivateKnight:
    case T::kPromoteKnight:
    case T::kChaseRobber:
    case T::kRelocateKnight:
    case T::kPillageCity:
    case T::kPlaceMetropolis:
    case T::kCommitKnight:
    case T::kRemoveKnight:
    case T::kRepairCity:
      x.a = uint8_t(below(kNumNodes));
      break;
    case T::kPlaceKnight:
      x = Action::Make(t, below(kNumNodes), 1 + below(kMaxKnightLevel));
      break;
    case T::kHarborOffer:
      x = Action::Make(t, below(kMaxSeats), below(kNumResources));
      break;
    case T::kPlayProgress:
      x = RandomPlay(rng);
      break;
    case T::kChanceDev:
      x.a = uint8_t(below(kNumDevKinds));
      break;
    case T::kPlayDev: {
      const int dev = below(kNumDevKinds);
      if (dev == kDevYearOfPlenty) {
        const int b = below(kNumResources), c = below(kNumResources);
        x = Action::PlayDev(dev, std::min(b, c), std::max(b, c));
      } else if (dev == kDevMonopoly) {
        x = Action::PlayDev(dev, below(kNumResources));
      } else {
        x = Action::PlayDev(dev);
      }
      break;
    }
    case T::kMoveKnight:
    case T::kDisplaceKnight:
      x.a = uint8_t(below(kNumNodes));
      x.b = uint8_t(below(kNumNodes));
      break;
    case T::kBuyImprovement:
    case T::kDefenderDeck:
      x.a = uint8_t(below(kNumTracks));
      break;
    case T::kBankTrade:
      x.a = uint8_t(below(kNumCardTypes));
      x.b = uint8_t(below(kNumCardTypes));
      break;
    case T::kMoveRobber:
      x = Action::MoveRobber(below(kNumHexes), below(kMaxSeats + 1) - 1);
      break;
    case T::kAqueduct:
      x.a = uint8_t(below(kNumResources));
      break;
    case T::kTradeOffer:
    case T::kTradeCounter: {
      CardCounts give, want;
      for (int c = 0; c < kNumCardTypes; ++c) {
        if (below(3) == 0) give[c] = uint8_t(below(kMaxCardsPerTypeInOffer + 1));
        if (below(3) == 0) want[c] = uint8_t(below(kMaxCardsPerTypeInOffer + 1));
      }
      x = t == T::kTradeOffer ? Action::TradeOffer(give, want, below(1 << kMaxSeats))
                              : Action::TradeCounter(give, want);
      break;
    }
    case T::kRoll:
    case T::kEndTurn:
    case T::kCommitDone:
    case T::kTradeAccept:
    case T::kTradeDecline:
    case T::kTradeCancel:
    case T::kBuyDev:
    case T::kProgressStop:
      break;
  }
  return x;
}

// Boundary values of every type plus many random ones.
std::vector<Action> SampleActions() {
  std::vector<Action> v = {
      Action::Make(T::kChanceStartPlayer, 0),
      Action::Make(T::kChanceStartPlayer, 3),
      Action::Dice(1, 1, kEventShip),
      Action::Dice(6, 6, kEventScienceGate),
      Action::Dice(0, 0, kEventTradeGate),
      Action::Make(T::kChanceSteal, kBrick),
      Action::Make(T::kChanceSteal, kPaper),
      Action::Make(T::kChanceDraw, kAlchemist),
      Action::Make(T::kChanceDraw, kTradeMonopoly),
      Action::BuildRoad(0),
      Action::BuildRoad(kNumEdges - 1),
      Action::BuildSettlement(kNumNodes - 1),
      Action::Make(T::kMoveKnight, 0, kNumNodes - 1),
      Action::MoveRobber(0, -1),
      Action::MoveRobber(kNumHexes - 1, kMaxSeats - 1),
      Action::Make(T::kAqueduct, kOre),
      Action::TradeOffer({}, {}, 0),
      Action::TradeOffer(CardCounts{{7, 7, 7, 7, 7, 7, 7, 7}}, CardCounts{{7, 7, 7, 7, 7, 7, 7, 7}}, 0xF),
      Action::TradeCounter(CardCounts{{0, 0, 0, 0, 0, 0, 0, 7}}, CardCounts{{7, 0, 0, 0, 0, 0, 0, 0}}),
      Action::Play(kAlchemist, 1, 1),
      Action::Play(kAlchemist, 6, 6),
      Action::Play(kInventor, 0, 1),
      Action::Play(kInventor, kNumHexes - 2, kNumHexes - 1),
      Action::Play(kDiplomat, 0),
      Action::Play(kDiplomat, kNumEdges - 1),
      Action::Play(kSaboteur, 0),
      Action::Play(kSaboteur, kNumNodes - 1),
      Action::Play(kTradeMonopoly, kPaper),
      Action::Play(kPrinter),
      Action::Make(T::kPlaceKnight, 0, 1),
      Action::Make(T::kPlaceKnight, kNumNodes - 1, kMaxKnightLevel),
  };
  std::mt19937_64 rng(20240601);
  for (const TypeAndName& t : kAllTypes) {
    // All-zero fields, where they name an action (no Alchemist with dice 0, no knight of level 0).
    if (t.type != T::kPlayProgress && t.type != T::kPlaceKnight) v.push_back(Action::Make(t.type));
    for (int i = 0; i < 300; ++i) v.push_back(RandomAction(t.type, rng));
  }
  return v;
}

TEST(ActionTest, TypeNamesAreTheDocumentedOnes) {
  for (const TypeAndName& t : kAllTypes) EXPECT_EQ(ActionTypeName(t.type), t.name);
  EXPECT_EQ(ActionTypeName(ActionType(200)), "?");
}

TEST(ActionTest, TypeSitsInTheTopByte) {
  for (const TypeAndName& t : kAllTypes) EXPECT_EQ(Encode(Action::Make(t.type)), uint64_t(t.type) << 56) << t.name;
}

TEST(ActionTest, EncodingMatchesTheTable) {
  EXPECT_EQ(Encode(Action::Dice(4, 3, kEventPoliticsGate)), uint64_t(1) << 56 | 4 << 16 | 3 << 8 | 2);
  EXPECT_EQ(Encode(Action::Make(T::kMoveKnight, 3, 9)), uint64_t(19) << 56 | 3 << 16 | 9 << 8);
  EXPECT_EQ(Encode(Action::MoveRobber(7, 2)), uint64_t(30) << 56 | 7 << 16 | 3 << 8);
  EXPECT_EQ(Encode(Action::MoveRobber(7, -1)), uint64_t(30) << 56 | 7 << 16);
  CardCounts give, want;
  give[kBrick] = 2;
  give[kWool] = 1;
  want[kOre] = 1;
  want[kPaper] = 7;
  const uint64_t give_bits = 2 | 1 << 6;
  const uint64_t want_bits = 1 << 12 | uint64_t(7) << 21;
  EXPECT_EQ(Encode(Action::TradeOffer(give, want, 0b1010)),
            uint64_t(40) << 56 | give_bits | want_bits << 24 | uint64_t(0b1010) << 48);
  EXPECT_EQ(Encode(Action::TradeCounter(give, want)), uint64_t(43) << 56 | give_bits | want_bits << 24);
}

TEST(ActionTest, EncodeIgnoresFieldsTheTypeDoesNotHave) {
  Action roll = Action::Roll();
  roll.a = 5;
  roll.give.Set(kOre, 3);
  EXPECT_EQ(Encode(roll), Encode(Action::Roll()));
  Action counter = Action::TradeCounter({}, {});
  counter.addressees = 0xF;  // counters have no addressees (TRD-3 step 2)
  EXPECT_EQ(Encode(counter), Encode(Action::TradeCounter({}, {})));
}

TEST(ActionTest, EncodeDecodeRoundTrip) {
  for (const Action& x : SampleActions()) {
    std::optional<Action> y = Decode(Encode(x));
    ASSERT_TRUE(y.has_value()) << ActionToString(x);
    EXPECT_EQ(*y, x) << ActionToString(x);
  }
}

TEST(ActionTest, DecodeThenEncodeIsIdentityOnRandomCodes) {
  // Random payloads under every known type: whatever decodes must encode back
  // to the same code, and print and parse back to the same action.
  std::mt19937_64 rng(7);
  int decoded = 0;
  for (int i = 0; i < 200000; ++i) {
    const TypeAndName& t = kAllTypes[rng() % std::size(kAllTypes)];
    uint64_t payload = rng();
    const int shape = int(rng() % 4);
    if (shape == 0) payload &= 0x3F3F3F;            // small bytes, often in range
    if (shape == 1) payload &= 0x070700;            // one or two small leading fields
    if (shape == 2) payload &= 0xF'FFFF'FFFF'FFFF;  // trade-shaped
    const uint64_t code = uint64_t(t.type) << 56 | (payload & ((uint64_t(1) << 56) - 1));
    std::optional<Action> x = Decode(code);
    if (!x) continue;
    ++decoded;
    EXPECT_EQ(Encode(*x), code);
    std::string error;
    std::optional<Action> y = ParseAction(ActionToString(*x), &error);
    ASSERT_TRUE(y.has_value()) << ActionToString(*x) << ": " << error;
    EXPECT_EQ(*y, *x);
  }
  EXPECT_GT(decoded, 10000);
}

TEST(ActionTest, DecodeRejectsUnknownTypes) {
  for (int code = 0; code < 256; ++code) {
    if (IsKnownType(code)) continue;
    EXPECT_FALSE(Decode(uint64_t(code) << 56).has_value()) << code;
    EXPECT_FALSE(Decode(uint64_t(code) << 56 | 1).has_value()) << code;
  }
}

TEST(ActionTest, DecodeRejectsStrayPayloadBits) {
  for (const TypeAndName& t : kAllTypes) {
    const uint64_t base = uint64_t(t.type) << 56;
    int allowed_bits = 0;
    for (int bit = 0; bit < 56; ++bit) {
      std::optional<Action> x = Decode(base | uint64_t(1) << bit);
      if (!x) continue;
      ++allowed_bits;
      EXPECT_EQ(Encode(*x), base | uint64_t(1) << bit) << t.name << " bit " << bit;
    }
    // Which bits a type may use: the offer 52, the counter 48, bytes a/b/c 8
    // each (less where the range is smaller than a byte), none without fields.
    int expected = 0;
    switch (t.type) {
      case T::kTradeOffer:
        expected = 52;
        break;
      case T::kTradeCounter:
        expected = 48;
        break;
      case T::kRoll:
      case T::kEndTurn:
      case T::kCommitDone:
      case T::kTradeAccept:
      case T::kTradeDecline:
      case T::kTradeCancel:
      case T::kProgressStop:
        expected = 0;
        break;
      default:
        expected = -1;  // checked below by range
    }
    if (expected >= 0) {
      EXPECT_EQ(allowed_bits, expected) << t.name;
    }
    // Whatever the fields, nothing above bit 23 (or 51 for trades) decodes.
    const int first_stray = t.type == T::kTradeOffer ? 52 : t.type == T::kTradeCounter ? 48 : 24;
    for (int bit = first_stray; bit < 56; ++bit)
      EXPECT_FALSE(Decode(base | uint64_t(1) << bit).has_value()) << t.name << " bit " << bit;
  }
  // Bytes b and c of a one-field type.
  EXPECT_FALSE(Decode(Encode(Action::BuildRoad(3)) | 1 << 8).has_value());
  EXPECT_FALSE(Decode(Encode(Action::BuildRoad(3)) | 1).has_value());
  EXPECT_FALSE(Decode(Encode(Action::Make(T::kMoveKnight, 1, 2)) | 1).has_value());
}

TEST(ActionTest, DecodeRejectsOutOfRangeFields) {
  auto code = [](ActionType t, int a, int b = 0, int c = 0) { return uint64_t(t) << 56 | a << 16 | b << 8 | c; };
  EXPECT_TRUE(Decode(code(T::kBuildSettlement, 53)));
  EXPECT_FALSE(Decode(code(T::kBuildSettlement, 54)));
  EXPECT_FALSE(Decode(code(T::kMoveKnight, 3, 54)));
  EXPECT_TRUE(Decode(code(T::kBuildRoad, 71)));
  EXPECT_FALSE(Decode(code(T::kBuildRoad, 72)));
  EXPECT_TRUE(Decode(code(T::kMoveRobber, 18, 4)));
  EXPECT_FALSE(Decode(code(T::kMoveRobber, 19)));
  EXPECT_FALSE(Decode(code(T::kMoveRobber, 3, 5)));  // victim+1 <= 4
  EXPECT_TRUE(Decode(code(T::kDiscard, kPaper)));
  EXPECT_FALSE(Decode(code(T::kDiscard, 8)));
  EXPECT_FALSE(Decode(code(T::kChanceSteal, 8)));
  EXPECT_FALSE(Decode(code(T::kBankTrade, kOre, 8)));
  EXPECT_FALSE(Decode(code(T::kAqueduct, kCloth)));  // PRD-5: a resource only
  EXPECT_FALSE(Decode(code(T::kBuyImprovement, 3)));
  EXPECT_FALSE(Decode(code(T::kDefenderDeck, 3)));
  EXPECT_FALSE(Decode(code(T::kChanceStartPlayer, 4)));
  EXPECT_FALSE(Decode(code(T::kTradeConfirm, 4)));
  EXPECT_TRUE(Decode(code(T::kChanceDice, 6, 6, 3)));
  EXPECT_FALSE(Decode(code(T::kChanceDice, 7, 6, 0)));
  EXPECT_FALSE(Decode(code(T::kChanceDice, 6, 7, 0)));
  EXPECT_FALSE(Decode(code(T::kChanceDice, 6, 6, 4)));
  EXPECT_FALSE(Decode(code(T::kChanceDice, 0, 3, 0)));  // C-S1 fixes both dice
  EXPECT_FALSE(Decode(code(T::kChanceDice, 3, 0, 0)));
  EXPECT_TRUE(Decode(code(T::kChanceDraw, 24)));
  EXPECT_FALSE(Decode(code(T::kChanceDraw, 25)));
  EXPECT_FALSE(Decode(code(T::kDiscardProgress, kNoProgressCard)));

  EXPECT_TRUE(Decode(code(T::kPlaceKnight, 53, 3)));
  EXPECT_FALSE(Decode(code(T::kPlaceKnight, 53, 0)));
  EXPECT_FALSE(Decode(code(T::kPlaceKnight, 53, 4)));
  EXPECT_FALSE(Decode(code(T::kPlaceKnight, 54, 1)));
  EXPECT_FALSE(Decode(code(T::kRemoveKnight, 54)));
  EXPECT_FALSE(Decode(code(T::kRepairCity, 54)));
  EXPECT_FALSE(Decode(code(T::kTakeProgress, 25)));
  EXPECT_FALSE(Decode(code(T::kTakeCard, 8)));
  EXPECT_FALSE(Decode(code(T::kGiveCard, 8)));
  EXPECT_TRUE(Decode(code(T::kHarborOffer, 3, kOre)));
  EXPECT_FALSE(Decode(code(T::kHarborOffer, 4, kOre)));
  EXPECT_FALSE(Decode(code(T::kHarborOffer, 1, kCloth)));  // C-T1: a resource is offered
}

TEST(ActionTest, DecodeChecksEachCardsParameters) {
  auto play = [](int card, int b = 0, int c = 0) { return uint64_t(T::kPlayProgress) << 56 | card << 16 | b << 8 | c; };
  EXPECT_TRUE(Decode(play(kTradeMonopoly, kCloth)));
  EXPECT_FALSE(Decode(play(25)));
  EXPECT_FALSE(Decode(play(kNoProgressCard)));
  // Alchemist: both dice 1..6 (C-S1).
  EXPECT_TRUE(Decode(play(kAlchemist, 1, 6)));
  EXPECT_FALSE(Decode(play(kAlchemist, 0, 3)));
  EXPECT_FALSE(Decode(play(kAlchemist, 3, 0)));
  EXPECT_FALSE(Decode(play(kAlchemist, 7, 3)));
  EXPECT_FALSE(Decode(play(kAlchemist, 3, 7)));
  // Inventor: two different hexes, in increasing order (C-S4).
  EXPECT_TRUE(Decode(play(kInventor, 3, 9)));
  EXPECT_FALSE(Decode(play(kInventor, 9, 3)));
  EXPECT_FALSE(Decode(play(kInventor, 3, 3)));
  EXPECT_FALSE(Decode(play(kInventor, 3, 19)));
  // Nodes, hexes, edges, seats and card types.
  EXPECT_TRUE(Decode(play(kEngineer, 53)));
  EXPECT_FALSE(Decode(play(kEngineer, 54)));
  EXPECT_FALSE(Decode(play(kMedicine, 54)));
  EXPECT_FALSE(Decode(play(kIntrigue, 54)));
  EXPECT_FALSE(Decode(play(kSaboteur, 54)));
  EXPECT_FALSE(Decode(play(kBishop, 19)));
  EXPECT_FALSE(Decode(play(kMerchant, 19)));
  EXPECT_TRUE(Decode(play(kDiplomat, 71)));
  EXPECT_FALSE(Decode(play(kDiplomat, 72)));
  for (int card : {kDeserter, kSpy, kMasterMerchant}) {
    EXPECT_TRUE(Decode(play(card, 3)));
    EXPECT_FALSE(Decode(play(card, 4)));
  }
  EXPECT_TRUE(Decode(play(kMerchantFleet, kPaper)));
  EXPECT_FALSE(Decode(play(kMerchantFleet, 8)));
  EXPECT_TRUE(Decode(play(kResourceMonopoly, kOre)));
  EXPECT_FALSE(Decode(play(kResourceMonopoly, kCloth)));
  EXPECT_FALSE(Decode(play(kTradeMonopoly, kOre)));
  EXPECT_FALSE(Decode(play(kTradeMonopoly, 8)));
  // Cards without parameters take no stray byte; one-parameter cards no c.
  for (int card : {kCrane, kIrrigation, kMining, kPrinter, kRoadBuilding, kSmith, kConstitution, kWarlord, kWedding,
                   kCommercialHarbor}) {
    EXPECT_TRUE(Decode(play(card))) << ProgressCardName(card);
    EXPECT_FALSE(Decode(play(card, 1))) << ProgressCardName(card);
    EXPECT_FALSE(Decode(play(card, 0, 1))) << ProgressCardName(card);
  }
  EXPECT_FALSE(Decode(play(kSpy, 1, 1)));
  EXPECT_FALSE(Decode(play(kDiplomat, 5, 1)));
}

TEST(ActionTest, TextRoundTrip) {
  for (const Action& x : SampleActions()) {
    const std::string text = ActionToString(x);
    std::string error;
    std::optional<Action> y = ParseAction(text, &error);
    ASSERT_TRUE(y.has_value()) << text << ": " << error;
    EXPECT_EQ(*y, x) << text;
    EXPECT_EQ(ActionToString(*y), text);
  }
}

TEST(ActionTest, TextIsUniquePerCode) {
  std::vector<Action> actions = SampleActions();
  std::sort(actions.begin(), actions.end());
  actions.erase(std::unique(actions.begin(), actions.end()), actions.end());
  std::vector<std::string> texts;
  for (const Action& x : actions) texts.push_back(ActionToString(x));
  std::sort(texts.begin(), texts.end());
  EXPECT_EQ(std::adjacent_find(texts.begin(), texts.end()), texts.end());
}

TEST(ActionTest, TextExamples) {
  CardCounts give, want;
  give[kBrick] = 2;
  give[kWool] = 1;
  want[kOre] = 1;
  const std::pair<Action, std::string> examples[] = {
      {Action::BuildRoad(17), "build_road e17"},
      {Action::Make(T::kMoveKnight, 3, 9), "move_knight n3 n9"},
      {Action::Dice(4, 3, kEventShip), "dice 4 3 ship"},
      {Action::Dice(0, 0, kEventScienceGate), "dice - - science"},
      {Action::Dice(1, 6, kEventTradeGate), "dice 1 6 trade"},
      {Action::Dice(2, 2, kEventPoliticsGate), "dice 2 2 politics"},
      {Action::Make(T::kChanceSteal, kOre), "steal ore"},
      {Action::Make(T::kChanceDraw, kCrane), "draw crane"},
      {Action::Make(T::kBankTrade, kBrick, kOre), "bank_trade brick ore"},
      {Action::MoveRobber(7, 2), "move_robber h7 rob 2"},
      {Action::MoveRobber(7, -1), "move_robber h7"},
      {Action::Make(T::kDiscard, kWool), "discard wool"},
      {Action::TradeOffer(give, want, 0b1010), "offer give 2brick 1wool want 1ore to 1,3"},
      {Action::TradeCounter(want, CardCounts{{1, 0, 0, 0, 0, 0, 0, 0}}), "counter give 1ore want 1brick"},
      {Action::TradeOffer({}, want, 0), "offer give - want 1ore to -"},
      {Action::Make(T::kTradeConfirm, 2), "confirm 2"},
      {Action::Make(T::kChanceStartPlayer, 3), "chance_start_player 3"},
      {Action::Roll(), "roll"},
      {Action::EndTurn(), "end_turn"},
      {Action::Make(T::kBuyImprovement, kPolitics), "buy_improvement politics"},
      {Action::Make(T::kDefenderDeck, kScience), "defender_deck science"},
      {Action::Make(T::kAqueduct, kGrain), "aqueduct grain"},
      {Action::Make(T::kDiscardProgress, kRoadBuilding), "discard_progress road_building"},
      {Action::Make(T::kPlaceMetropolis, 40), "place_metropolis n40"},
      {Action::Make(T::kTradeCancel), "cancel"},
      {Action::Play(kAlchemist, 3, 4), "play alchemist 3 4"},
      {Action::Play(kEngineer, 12), "play engineer n12"},
      {Action::Play(kInventor, 3, 9), "play inventor h3 h9"},
      {Action::Play(kMedicine, 7), "play medicine n7"},
      {Action::Play(kBishop, 5), "play bishop h5"},
      {Action::Play(kSpy, 2), "play spy 2"},
      {Action::Play(kDeserter, 0), "play deserter 0"},
      {Action::Play(kMasterMerchant, 1), "play master_merchant 1"},
      {Action::Play(kDiplomat, 40), "play diplomat e40"},
      {Action::Play(kDiplomat, 0), "play diplomat e0"},
      {Action::Play(kIntrigue, 30), "play intrigue n30"},
      {Action::Play(kSaboteur), "play saboteur"},
      {Action::Play(kSaboteur, 12), "play saboteur n12"},
      {Action::Play(kMerchant, 7), "play merchant h7"},
      {Action::Play(kMerchantFleet, kWool), "play merchant_fleet wool"},
      {Action::Play(kMerchantFleet, kCoin), "play merchant_fleet coin"},
      {Action::Play(kResourceMonopoly, kOre), "play resource_monopoly ore"},
      {Action::Play(kTradeMonopoly, kCoin), "play trade_monopoly coin"},
      {Action::Play(kCrane), "play crane"},
      {Action::Play(kRoadBuilding), "play road_building"},
      {Action::Make(T::kProgressStop), "stop"},
      {Action::Make(T::kRemoveKnight, 5), "remove_knight n5"},
      {Action::Make(T::kPlaceKnight, 5, 2), "place_knight n5 2"},
      {Action::Make(T::kTakeProgress, kSpy), "take_progress spy"},
      {Action::Make(T::kTakeCard, kOre), "take_card ore"},
      {Action::Make(T::kGiveCard, kCloth), "give_card cloth"},
      {Action::Make(T::kHarborOffer, 2, kBrick), "harbor_offer 2 brick"},
      {Action::Make(T::kRepairCity, 12), "repair_city n12"},
      {Action::Make(T::kChanceDev, kDevMonopoly), "dev_card monopoly"},
      {Action::Make(T::kBuyDev), "buy_dev"},
      {Action::PlayDev(kDevKnight), "play_dev knight"},
      {Action::PlayDev(kDevYearOfPlenty, kBrick, kOre), "play_dev year_of_plenty brick ore"},
      {Action::PlayDev(kDevMonopoly, kWool), "play_dev monopoly wool"},
  };
  for (const auto& [action, text] : examples) {
    EXPECT_EQ(ActionToString(action), text);
    std::string error;
    std::optional<Action> parsed = ParseAction(text, &error);
    ASSERT_TRUE(parsed.has_value()) << text << ": " << error;
    EXPECT_EQ(*parsed, action) << text;
  }
}

TEST(ActionTest, ParseToleratesWhitespace) {
  std::string error;
  EXPECT_EQ(ParseAction("  build_road\te17 \n", &error), Action::BuildRoad(17));
  EXPECT_EQ(ParseAction("move_robber   h7  rob   2", &error), Action::MoveRobber(7, 2));
  CardCounts give, want;
  give[kBrick] = 2;
  want[kOre] = 1;
  EXPECT_EQ(ParseAction(" offer  give 2brick  want 1ore  to 1, 3 ", &error), Action::TradeOffer(give, want, 0b1010));
}

std::string ParseError(std::string_view text) {
  std::string error;
  std::optional<Action> a = ParseAction(text, &error);
  EXPECT_FALSE(a.has_value()) << text << " parsed as " << ActionToString(*a);
  return error;
}

TEST(ActionTest, ParseErrorsArePrecise) {
  EXPECT_EQ(ParseError(""), "empty action");
  EXPECT_EQ(ParseError("   "), "empty action");
  EXPECT_EQ(ParseError("bulid_road e17"), "unknown action 'bulid_road'");
  EXPECT_EQ(ParseError("build_road x"), "build_road: expected an edge like e17, got 'x'");
  EXPECT_EQ(ParseError("build_road"), "build_road: expected an edge like e17, got nothing");
  EXPECT_EQ(ParseError("build_road n17"), "build_road: expected an edge like e17, got 'n17'");
  EXPECT_EQ(ParseError("build_road e72"), "build_road: expected an edge like e17, got 'e72' (edges are e0..e71)");
  EXPECT_EQ(ParseError("build_road e17 e18"), "build_road: unexpected 'e18' after the action");
  EXPECT_EQ(ParseError("build_city n54"), "build_city: expected a node like n12, got 'n54' (nodes are n0..n53)");
  EXPECT_EQ(ParseError("move_knight n3"), "move_knight: expected a node like n12, got nothing");
  EXPECT_EQ(ParseError("move_robber 7"), "move_robber: expected a hex like h7, got '7'");
  EXPECT_EQ(ParseError("move_robber h19"), "move_robber: expected a hex like h7, got 'h19' (hexes are h0..h18)");
  EXPECT_EQ(ParseError("move_robber h7 steal 2"), "move_robber: expected 'rob' and a seat, or nothing, got 'steal'");
  EXPECT_EQ(ParseError("move_robber h7 rob 4"), "move_robber: expected a seat 0..3, got '4'");
  EXPECT_EQ(ParseError("move_robber h7 rob"), "move_robber: expected a seat 0..3, got nothing");
  EXPECT_EQ(ParseError("steal gold"),
            "steal: expected a card (brick, lumber, wool, grain, ore, cloth, coin, paper), got 'gold'");
  EXPECT_EQ(ParseError("aqueduct cloth"),
            "aqueduct: expected a resource (brick, lumber, wool, grain, ore), got 'cloth'");
  EXPECT_EQ(ParseError("buy_improvement red"),
            "buy_improvement: expected a track (trade, politics, science), got 'red'");
  EXPECT_EQ(ParseError("draw kran"), "draw: expected a progress card like crane or road_building, got 'kran'");
  EXPECT_EQ(ParseError("dice 0 3 ship"), "dice: expected a die 1..6, or '-' when an Alchemist fixed the dice, got '0'");
  EXPECT_EQ(ParseError("dice 4 7 ship"), "dice: expected a die 1..6, or '-' when an Alchemist fixed the dice, got '7'");
  EXPECT_EQ(ParseError("dice 4 3 boat"), "dice: expected an event face (ship, trade, politics, science), got 'boat'");
  EXPECT_EQ(ParseError("dice - 3 ship"),
            "dice: an Alchemist fixes both production dice, so write both as '-' or neither (C-S1)");
  EXPECT_EQ(ParseError("confirm 9"), "confirm: expected a seat 0..3, got '9'");
  EXPECT_EQ(ParseError("confirm -1"), "confirm: expected a seat 0..3, got '-1'");  // no wrap to 255
  EXPECT_EQ(ParseError("confirm +1"), "confirm: expected a seat 0..3, got '+1'");
  EXPECT_EQ(ParseError("roll now"), "roll: unexpected 'now' after the action");
}

// A client's text is quoted in an error only in part: 40 bytes and its length
// (docs/SECURITY.md), wherever the parser quotes it.
TEST(ActionTest, ParseErrorsQuoteLongTextInPart) {
  const std::string huge(900 * 1024, 'x');
  const std::string head(40, 'x');
  const std::string tail = "...' (" + std::to_string(huge.size()) + " bytes)";
  EXPECT_EQ(ParseError(huge), "unknown action '" + head + tail);
  EXPECT_EQ(ParseError("build_road " + huge), "build_road: expected an edge like e17, got '" + head + tail);
  EXPECT_EQ(ParseError("end_turn " + huge), "end_turn: unexpected '" + head + tail + " after the action");
  EXPECT_EQ(ParseError("offer give 9" + huge + " want 1ore"),
            "offer: expected cards like 2brick after 'give', or '-' for none, got '9" + head.substr(1) + "...' (" +
                std::to_string(huge.size() + 1) + " bytes)");
  EXPECT_EQ(ParseError("offer give 1brick want 1ore to " + huge),
            "offer: expected seats like 1,3 after 'to', or '-' for nobody, got '" + head + tail);
  // 40 bytes are quoted whole.
  EXPECT_EQ(ParseError("bulid_road_" + std::string(29, 'y')),
            "unknown action 'bulid_road_" + std::string(29, 'y') + "'");
}

TEST(ActionTest, ParseErrorsOfProgressCards) {
  EXPECT_EQ(ParseError("play"), "play: expected a progress card like crane or road_building, got nothing");
  EXPECT_EQ(ParseError("play wizard"), "play: expected a progress card like crane or road_building, got 'wizard'");
  EXPECT_EQ(ParseError("play alchemist 3"), "play: expected a die 1..6, got nothing");
  EXPECT_EQ(ParseError("play alchemist 0 3"), "play: expected a die 1..6, got '0'");
  EXPECT_EQ(ParseError("play alchemist - -"), "play: expected a die 1..6, got '-'");
  EXPECT_EQ(ParseError("play inventor h9 h3"),
            "play: the Inventor's two hexes are different and written in increasing order (C-S4)");
  EXPECT_EQ(ParseError("play inventor h3 h3"),
            "play: the Inventor's two hexes are different and written in increasing order (C-S4)");
  EXPECT_EQ(ParseError("play spy 4"), "play: expected a seat 0..3, got '4'");
  EXPECT_EQ(ParseError("play diplomat"), "play: expected an edge like e17, got nothing");
  EXPECT_EQ(ParseError("play saboteur e3"), "play: expected a city node like n12, or nothing, got 'e3'");
  EXPECT_EQ(ParseError("play resource_monopoly coin"),
            "play: expected a resource (brick, lumber, wool, grain, ore), got 'coin'");
  EXPECT_EQ(ParseError("play trade_monopoly ore"), "play: expected a commodity (cloth, coin, paper), got 'ore'");
  EXPECT_EQ(ParseError("play crane n3"), "play: unexpected 'n3' after the action");
  EXPECT_EQ(ParseError("place_knight n5 4"), "place_knight: expected a knight level 1..3, got '4'");
  EXPECT_EQ(ParseError("place_knight n5 -1"), "place_knight: expected a knight level 1..3, got '-1'");
  EXPECT_EQ(ParseError("play alchemist 3 -2"), "play: expected a die 1..6, got '-2'");
  EXPECT_EQ(ParseError("harbor_offer 2 cloth"),
            "harbor_offer: expected a resource (brick, lumber, wool, grain, ore), got 'cloth'");
  EXPECT_EQ(ParseError("stop now"), "stop: unexpected 'now' after the action");
}

TEST(ActionTest, SaboteurWithoutACityReadsBothWays) {
  // Outside SABOTAGE_CITY b is 0 and the text leaves it out; "n0" names the
  // same action.
  std::string error;
  EXPECT_EQ(ParseAction("play saboteur n0", &error), Action::Play(kSaboteur));
  EXPECT_EQ(ParseAction("play saboteur", &error), Action::Play(kSaboteur));
}

TEST(ActionTest, MaskedCardsPrintAsQuestionMarks) {
  // MaskEvent hides the card of TAKE_PROGRESS, TAKE_CARD and GIVE_CARD.
  EXPECT_EQ(ActionToString(Action::Make(T::kTakeProgress, 0xFE)), "take_progress ?");
  EXPECT_EQ(ActionToString(Action::Make(T::kTakeCard, 0xFE)), "take_card ?");
  EXPECT_EQ(ActionToString(Action::Make(T::kGiveCard, 0xFE)), "give_card ?");
}

TEST(ActionTest, ParseErrorsOfTrades) {
  EXPECT_EQ(ParseError("offer 2brick want 1ore to 1"), "offer: expected 'give', got '2brick'");
  EXPECT_EQ(ParseError("offer give 8brick want 1ore to 1"),
            "offer: expected 1..7 brick per side (TRD-3), got '8brick'");
  EXPECT_EQ(ParseError("offer give 0brick want 1ore to 1"),
            "offer: expected 1..7 brick per side (TRD-3), got '0brick'");
  EXPECT_EQ(ParseError("offer give brick want 1ore to 1"),
            "offer: expected cards like 2brick after 'give', or '-' for none, got 'brick'");
  EXPECT_EQ(ParseError("offer give 2gold want 1ore to 1"),
            "offer: expected cards like 2brick after 'give', or '-' for none, got '2gold'");
  EXPECT_EQ(ParseError("offer give want 1ore to 1"),
            "offer: expected cards like 2brick after 'give', or '-' for none, got 'want'");
  EXPECT_EQ(ParseError("offer give 1brick 2brick want 1ore to 1"), "offer: brick listed twice after 'give'");
  EXPECT_EQ(ParseError("offer give 1brick want 1ore"), "offer: expected 'to', got nothing");
  EXPECT_EQ(ParseError("offer give 1brick want 1ore to"),
            "offer: expected seats like 1,3 after 'to', or '-' for nobody, got nothing");
  EXPECT_EQ(ParseError("offer give 1brick want 1ore to 1,4"),
            "offer: expected seats like 1,3 after 'to', or '-' for nobody, got '1,4'");
  EXPECT_EQ(ParseError("offer give 1brick want 1ore to 1,1"), "offer: seat 1 listed twice");
  EXPECT_EQ(ParseError("counter give 1ore want 1brick to 2"), "counter: unexpected 'to' after the action");
  EXPECT_EQ(ParseError("counter give 1ore want"),
            "counter: expected cards like 2brick after 'want', or '-' for none, got nothing");
}

TEST(ActionTest, ParseAcceptsCardsInAnyOrder) {
  std::string error;
  std::optional<Action> a = ParseAction("counter give 1wool 2brick want -", &error);
  ASSERT_TRUE(a.has_value()) << error;
  EXPECT_EQ(ActionToString(*a), "counter give 2brick 1wool want -");
}

TEST(ActionTest, ParseWithoutErrorString) {
  EXPECT_FALSE(ParseAction("bulid_road e17", nullptr).has_value());
  EXPECT_EQ(ParseAction("build_road e17", nullptr), Action::BuildRoad(17));
}

TEST(ActionTest, SortingByEncodeGroupsByType) {
  std::vector<Action> actions = SampleActions();
  std::shuffle(actions.begin(), actions.end(), std::mt19937_64(3));
  std::sort(actions.begin(), actions.end());
  for (size_t i = 1; i < actions.size(); ++i) {
    EXPECT_LE(uint8_t(actions[i - 1].type), uint8_t(actions[i].type));
    EXPECT_LE(Encode(actions[i - 1]), Encode(actions[i]));
  }
  // The largest payload of a type still sorts before the next type.
  EXPECT_LT(Action::Make(T::kBuildRoad, kNumEdges - 1), Action::BuildSettlement(0));
  // PLAY_PROGRESS sorts by card, then by its parameters.
  EXPECT_LT(Action::Play(kAlchemist, 6, 6), Action::Play(kCrane));
  EXPECT_LT(Action::Play(kInventor, 3, 9), Action::Play(kInventor, 4, 5));
  EXPECT_LT(Action::Play(kTradeMonopoly, kPaper), Action::Make(T::kProgressStop));
  EXPECT_LT(Action::TradeOffer(CardCounts{{7, 7, 7, 7, 7, 7, 7, 7}}, CardCounts{{7, 7, 7, 7, 7, 7, 7, 7}}, 0xF),
            Action::Make(T::kTradeAccept));
}

TEST(ActionTest, PackedCardsRoundTrip) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 1000; ++i) {
    CardCounts c;
    for (int t = 0; t < kNumCardTypes; ++t) c[t] = uint8_t(rng() % 16);
    PackedCards p = PackedCards::From(c);
    EXPECT_EQ(p.ToCounts(), c);
    EXPECT_EQ(p.Total(), c.Total());
    for (int t = 0; t < kNumCardTypes; ++t) EXPECT_EQ(p.Get(t), c[t]);
  }
}

TEST(ActionTest, TradeConstructors) {
  CardCounts give, want;
  give[kCloth] = 3;
  want[kGrain] = 2;
  Action offer = Action::TradeOffer(give, want, 0b0110);
  EXPECT_EQ(offer.type, T::kTradeOffer);
  EXPECT_EQ(offer.give.ToCounts(), give);
  EXPECT_EQ(offer.want.ToCounts(), want);
  EXPECT_EQ(offer.addressees, 0b0110);
  Action counter = Action::TradeCounter(give, want);
  EXPECT_EQ(counter.type, T::kTradeCounter);
  EXPECT_EQ(counter.give.ToCounts(), give);
  EXPECT_EQ(counter.addressees, 0);
  EXPECT_TRUE(IsParameterised(offer.type));
  EXPECT_TRUE(IsParameterised(counter.type));
}

}  // namespace
}  // namespace metropolis
