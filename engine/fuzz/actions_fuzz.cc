// Whole games driven by the fuzzer's bytes. The first bytes choose the
// configuration; after that each byte is one step:
//
//   0xFF + 8 bytes   submit Decode(little-endian code) with the checked Apply
//   0xFE + 7 bytes   the same with a well-formed code: a real action type
//                    (byte 1) and a payload (bytes 2..7), so that most of these
//                    reach the rules' checks instead of failing to decode
//   anything else    the (byte % n)-th legal action or chance outcome
//
// What must hold: Apply refuses an illegal action with a message and leaves
// the state equal to its copy; an action it accepts is a listed legal action
// (or chance outcome), or a trade offer or counter, which are never listed;
// Validate() holds after every step (the fuzz build checks it inside Apply);
// a seat to act always has a legal action.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/fuzz/fuzz_check.h"
#include "engine/notation.h"
#include "engine/state.h"

namespace metropolis {
namespace {

class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool Done() const { return pos_ >= size_; }
  size_t Left() const { return size_ - pos_; }
  uint8_t Next() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint64_t NextCode(int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(Next()) << (8 * i);
    return v;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

constexpr ActionType kTypes[] = {
    ActionType::kChanceStartPlayer,
    ActionType::kChanceDice,
    ActionType::kChanceSteal,
    ActionType::kChanceDraw,
    ActionType::kRoll,
    ActionType::kEndTurn,
    ActionType::kBuildRoad,
    ActionType::kBuildSettlement,
    ActionType::kBuildCity,
    ActionType::kBuildWall,
    ActionType::kRecruitKnight,
    ActionType::kActivateKnight,
    ActionType::kPromoteKnight,
    ActionType::kMoveKnight,
    ActionType::kDisplaceKnight,
    ActionType::kChaseRobber,
    ActionType::kBuyImprovement,
    ActionType::kBankTrade,
    ActionType::kMoveRobber,
    ActionType::kDiscard,
    ActionType::kRelocateKnight,
    ActionType::kPillageCity,
    ActionType::kAqueduct,
    ActionType::kPlaceMetropolis,
    ActionType::kCommitKnight,
    ActionType::kCommitDone,
    ActionType::kDiscardProgress,
    ActionType::kDefenderDeck,
    ActionType::kTradeOffer,
    ActionType::kTradeAccept,
    ActionType::kTradeDecline,
    ActionType::kTradeCounter,
    ActionType::kTradeConfirm,
    ActionType::kTradeCancel,
    // The base game (RULES.md 22).
    ActionType::kChanceDev,
    ActionType::kBuyDev,
    ActionType::kPlayDev,
};

// Three bytes of options. Victory points are kept low and the length cap is
// sometimes short, so that short inputs reach the end of a game. The top bit
// of the third byte picks the base game (RULES.md 22), whose rules ignore the
// C&K options.
GameConfig ConfigFrom(Bytes& in) {
  const uint8_t b0 = in.Next(), b1 = in.Next(), b2 = in.Next();
  GameConfig c;
  c.num_seats = 3 + (b0 & 1);
  c.board = (b0 & 2) ? RandomBoard(b2) : DefaultBoard();
  RulesOptions& o = c.options;
  o.start_player = (b0 & 4) ? StartPlayer::kRoll : StartPlayer::kSeat0;
  o.robber_locked_until_first_attack = !(b0 & 8);
  o.displace_requires_connection = !(b0 & 16);
  o.knight_path_through_opponents = (b0 & 32) != 0;
  o.fiesepeter = (b0 & 64) != 0;
  o.bank_limited = !(b0 & 128);
  o.saboteur = Saboteur(b1 % 3);
  o.barbarian_victims = BarbarianVictims((b1 >> 2) & 1);
  o.aqueduct_trigger = AqueductTrigger((b1 >> 3) & 1);
  o.chase_robber_destination = ChaseRobberDestination((b1 >> 4) & 1);
  o.harbor3_commodity_output = Harbor3CommodityOutput((b1 >> 5) & 1);
  o.defender_by_knight_count = (b1 >> 6) & 1;
  o.victory_points = uint8_t(4 + (b2 % 10));
  if (b2 & 128) o.ruleset = Ruleset::kBase;
  if (b1 & 128) o.max_actions = 50 + 7 * uint32_t(b2);
  return c;
}

bool Listed(const State& s, const Action& a) {
  if (s.IsChanceNode()) {
    const auto outcomes = s.ChanceOutcomes();
    return std::any_of(outcomes.begin(), outcomes.end(), [&](const ChanceOutcome& o) { return o.action == a; });
  }
  ActionList legal;
  s.LegalActions(&legal);
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

// Submits an action from outside through the checked Apply.
void Submit(State* s, const Action& a) {
  const State before = *s;
  const std::string error = s->Apply(a);
  if (!error.empty()) {
    FUZZ_CHECK(*s == before,
               "refused '" + ActionToString(a) + "' (" + error + ") but changed the state\n" + ToNotation(before));
    return;
  }
  FUZZ_CHECK(IsParameterised(a.type) || Listed(before, a),
             "accepted '" + ActionToString(a) + "', which is not listed\n" + ToNotation(before));
}

}  // namespace
}  // namespace metropolis

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace metropolis;
  Bytes in(data, size);
  const GameConfig config = ConfigFrom(in);
  State s;
  std::string error;
  if (!NewGame(config, &s, &error)) return 0;

  ActionList legal;
  while (!in.Done() && !s.IsTerminal()) {
    const uint8_t b = in.Next();
    if (b == 0xFF && in.Left() >= 8) {
      if (const auto a = Decode(in.NextCode(8))) Submit(&s, *a);
    } else if (b == 0xFE && in.Left() >= 7) {
      const ActionType type = kTypes[in.Next() % std::size(kTypes)];
      const uint64_t payload = in.NextCode(6);
      // Field bytes sit at bits 0..23 and cards at 0..51: try the short form
      // first, as most actions have one.
      auto a = Decode(uint64_t(type) << 56 | (payload & 0xFFFFFF));
      if (!a) a = Decode(uint64_t(type) << 56 | payload);
      if (a) Submit(&s, *a);
    } else if (s.IsChanceNode()) {
      const auto outcomes = s.ChanceOutcomes();
      FUZZ_CHECK(!outcomes.empty(), ToNotation(s));
      double sum = 0;
      for (const ChanceOutcome& o : outcomes) sum += o.probability;
      FUZZ_CHECK(std::fabs(sum - 1.0) < 1e-9, ToNotation(s));
      const Action a = outcomes[b % outcomes.size()].action;
      error = s.Apply(a);
      FUZZ_CHECK(error.empty(), ActionToString(a) + ": " + error);
    } else {
      s.LegalActions(&legal);
      FUZZ_CHECK(legal.size > 0, "no legal action\n" + ToNotation(s));
      const Action a = legal.items[b % legal.size];
      const State before = s;
      error = s.Apply(a);
      FUZZ_CHECK(error.empty(), "listed but refused '" + ActionToString(a) + "': " + error + "\n" + ToNotation(before));
    }
#if !defined(METROPOLIS_VALIDATE_EVERY_STEP)
    // The fuzz build validates inside every Apply already; twice would halve the speed.
    FUZZ_CHECK(s.Validate().empty(), s.Validate() + "\n" + ToNotation(s));
#endif
  }
  return 0;
}
