// ViewFromProto on untrusted input: each kind of truncated or garbled field is
// refused with an error naming it and leaves *out unchanged, and random
// mutations of valid messages (of the bytes and of single fields) never crash
// it; whatever it accepts converts back and forth unchanged. Run under the
// asan preset, "never crash" includes no undefined behaviour.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>
#include <gtest/gtest.h>

#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "engine/view.h"
#include "lib/protocol/convert.h"
#include "lib/protocol/tests/random_games.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::protocol {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using v1::Position;

struct Sample {
  GameConfig config;
  v1::View view;
};

// Views of every seat and the spectator every `every` steps of a few games.
std::vector<Sample> Samples(int every) {
  std::vector<Sample> out;
  uint64_t seed = 31;
  for (const GameConfig& config : testing::TestConfigs()) {
    testing::PlayRandomGame(config, seed++, [&](const State& s, const Action*, const std::vector<Event>&) {
      if (s.action_count() % uint32_t(every) != 0) return;
      for (int viewer = kNoSeat; viewer < s.num_seats(); ++viewer) {
        Sample sample{config, {}};
        ViewToProto(MakeView(s, viewer), &sample.view);
        out.push_back(std::move(sample));
      }
    });
  }
  return out;
}

// A mid-game 4-seat position with a settlement, a city, a knight and roads
// of seat 0 on the board, as seat 0 sees it.
Sample MidGame() {
  const GameConfig config = testing::TestConfigs()[0];
  Sample found{config, {}};
  testing::PlayRandomGame(config, 3, [&](const State& s, const Action*, const std::vector<Event>&) {
    const PlayerState& p = s.player(0);
    if (found.view.has_position() || !p.settlements || !p.cities || !p.knights || !p.roads_lo) return;
    ViewToProto(MakeView(s, 0), &found.view);
  });
  EXPECT_TRUE(found.view.has_position());
  return found;
}

struct BadCase {
  const char* name;
  void (*Break)(v1::View*);
  std::string error;  // '*' stands for any text (an index or a count that depends on the position)
};

bool Glob(std::string_view s, std::string_view pattern) {
  if (pattern.empty()) return s.empty();
  if (pattern[0] == '*') {
    for (size_t i = 0; i <= s.size(); ++i)
      if (Glob(s.substr(i), pattern.substr(1))) return true;
    return false;
  }
  return !s.empty() && s[0] == pattern[0] && Glob(s.substr(1), pattern.substr(1));
}

// The first node whose `list` entry (of the position) is -1, for cases that
// put something there.
int FirstFree(const google::protobuf::RepeatedField<int32_t>& list) {
  for (int v = 0; v < list.size(); ++v)
    if (list[v] == -1) return v;
  return 0;
}

TEST(ViewFromProto, EveryBadFieldIsRefusedPrecisely) {
  const BadCase cases[] = {
      {"num seats", [](v1::View* v) { v->mutable_position()->set_num_seats(3); },
       "position.num_seats: 3, the configuration has 4"},
      {"tokens short", [](v1::View* v) { v->mutable_position()->mutable_token()->RemoveLast(); },
       "position.token: 18 values, expected 19"},
      {"token", [](v1::View* v) { v->mutable_position()->set_token(2, 13); },
       "position.token[2]: 13 is not a number token (0..12)"},
      {"phase", [](v1::View* v) { v->mutable_position()->set_phase(v1::Phase(4)); },
       "position.phase: 4 is not one of 0..3"},
      {"current seat", [](v1::View* v) { v->mutable_position()->set_current_seat(-1); },
       "position.current_seat: -1 is not a seat (0..3)"},
      {"turn", [](v1::View* v) { v->mutable_position()->set_turn(70000); },
       "position.turn: 70000 is not one of 0..65535"},
      {"roads short", [](v1::View* v) { v->mutable_position()->mutable_road_owner()->RemoveLast(); },
       "position.road_owner: 71 values, expected 72"},
      {"road owner", [](v1::View* v) { v->mutable_position()->set_road_owner(17, 9); },
       "position.road_owner[17]: 9 is not a seat (-1..3)"},
      {"building", [](v1::View* v) { v->mutable_position()->set_building(3, 3); },
       "position.building[3]: 3 is not one of 0..2"},
      {"knight levels long", [](v1::View* v) { v->mutable_position()->add_knight_level(0); },
       "position.knight_level: 55 values, expected 54"},
      {"robber", [](v1::View* v) { v->mutable_position()->set_robber_hex(19); },
       "position.robber_hex: 19 is not a hex (0..18)"},
      {"merchant", [](v1::View* v) { v->mutable_position()->set_merchant_hex(-2); },
       "position.merchant_hex: -2 is not a hex (-1..18)"},
      {"metropolis node", [](v1::View* v) { v->mutable_position()->set_metropolis_node(1, 54); },
       "position.metropolis_node[1]: 54 is not a node (-1..53)"},
      {"dice", [](v1::View* v) { v->mutable_position()->set_dice_red(7); }, "position.dice_red: 7 is not one of 0..6"},
      {"players", [](v1::View* v) { v->mutable_position()->mutable_players()->RemoveLast(); },
       "position.players: 3 values, expected 4"},
      {"hand", [](v1::View* v) { v->mutable_position()->mutable_players(1)->mutable_hand()->RemoveLast(); },
       "position.players[1].hand: 7 values, expected 8"},
      {"hand count", [](v1::View* v) { v->mutable_position()->mutable_players(2)->set_hand(0, 256); },
       "position.players[2].hand[0]: 256 is not one of 0..255"},
      {"progress hand",
       [](v1::View* v) {
         for (int i = 0; i < 9; ++i) v->mutable_position()->mutable_players(0)->add_progress(1);
       },
       "position.players[0].progress: * values, at most 8 allowed"},
      {"progress card",
       [](v1::View* v) {
         v->mutable_position()->mutable_players(0)->clear_progress();
         v->mutable_position()->mutable_players(0)->add_progress(25);
       },
       "position.players[0].progress[0]: 25 is not a progress card (0..24)"},
      {"level", [](v1::View* v) { v->mutable_position()->mutable_players(3)->set_level(2, 6); },
       "position.players[3].level[2]: 6 is not one of 0..5"},
      {"settlement supply", [](v1::View* v) { v->mutable_position()->mutable_players(0)->set_settlements_left(-129); },
       "position.players[0].settlements_left: -129 is not one of -128..127"},
      {"settlement mask", [](v1::View* v) { v->mutable_position()->mutable_players(0)->set_settlements(0); },
       "position.players[0].settlements: 0x0, the pieces give 0x*"},
      {"road mask", [](v1::View* v) { v->mutable_position()->mutable_players(0)->set_roads_hi(0x100); },
       "position.players[0].roads_hi: 0x100, the pieces give 0x*"},
      {"building owner",
       [](v1::View* v) {
         Position& p = *v->mutable_position();
         p.set_building_owner(FirstFree(p.building_owner()), 0);
       },
       "position.building[*]: 0 with owner 0"},
      {"knight owner",
       [](v1::View* v) {
         Position& p = *v->mutable_position();
         p.set_knight_level(FirstFree(p.knight_owner()), 2);
       },
       "position.knight_level[*]: 2 with owner -1"},
      {"too many roads",
       [](v1::View* v) {
         for (int e = 0; e < 16; ++e) v->mutable_position()->set_road_owner(e, 1);
       },
       "position: seat 1: * roads on the board"},
      {"bank", [](v1::View* v) { v->mutable_position()->set_bank(4, 40000); },
       "position.bank[4]: 40000 is not one of -32768..32767"},
      {"decks", [](v1::View* v) { v->mutable_position()->mutable_decks()->RemoveLast(); },
       "position.decks: 2 values, expected 3"},
      {"deck kinds", [](v1::View* v) { v->mutable_position()->mutable_decks(1)->add_unseen(0); },
       "position.decks[1].unseen: 10 values, expected 9"},
      {"returned card",
       [](v1::View* v) {
         v->mutable_position()->mutable_decks(kTrade)->add_returned(kAlchemist);
         v->mutable_position()->mutable_decks(kTrade)->add_returned_hidden(0);
       },
       "position.decks[0].returned[*]: 0 is not a card of the trade deck (or 254, hidden)"},
      {"returned marks", [](v1::View* v) { v->mutable_position()->mutable_decks(0)->add_returned(0); },
       "position.decks[0].returned_hidden: * values, expected *"},
      {"fleet", [](v1::View* v) { v->mutable_position()->mutable_effects()->set_fleet_cards(256); },
       "position.effects.fleet_cards: 256 is not one of 0..255"},
      {"addressees", [](v1::View* v) { v->mutable_position()->mutable_trade()->set_addressees(16); },
       "position.trade.addressees: 16 is not one of 0..15"},
      {"answers", [](v1::View* v) { v->mutable_position()->mutable_trade()->mutable_answer()->RemoveLast(); },
       "position.trade.answer: 3 values, expected 4"},
      {"pending overflow",
       [](v1::View* v) {
         for (int i = 0; i < 25; ++i) v->mutable_position()->add_pending();
       },
       "position.pending: * values, at most 24 allowed"},
      {"pending kind", [](v1::View* v) { v->mutable_position()->add_pending()->set_kind(35); },
       "position.pending[*].kind: 35 is not a pending kind (0..34)"},
      {"pending seat", [](v1::View* v) { v->mutable_position()->add_pending()->set_seat(4); },
       "position.pending[*].seat: 4 is not a seat (-1..3)"},
      {"viewer", [](v1::View* v) { v->set_viewer(4); }, "viewer: 4 is not a seat (-1..3)"},
      {"hand totals", [](v1::View* v) { v->add_hand_total(0); }, "hand_total: 5 values, expected 4"},
      {"unplaced", [](v1::View* v) { v->mutable_unplaced_progress()->RemoveLast(); },
       "unplaced_progress: 24 values, expected 25"},
      {"known", [](v1::View* v) { v->mutable_known()->RemoveLast(); }, "known: 3 values, expected 4"},
      {"known progress", [](v1::View* v) { v->mutable_known(2)->add_progress(0); },
       "known[2].progress: 26 values, expected 25"},
      {"legal", [](v1::View* v) { v->add_legal(uint64_t(9) << 56); },
       "legal[*]: code 0x0900000000000000 names no action of rules version 1"},
      {"legal overflow",
       [](v1::View* v) {
         for (int i = 0; i < 1025; ++i) v->add_legal(Encode(Action::EndTurn()));
       },
       "legal: * values, at most 1024 allowed"},
      {"empty", [](v1::View* v) { v->Clear(); }, "position.num_seats: 0, the configuration has 4"},
  };
  const Sample valid = MidGame();
  View sentinel = MakeView(State(), 2);
  {
    View back{State()};
    std::string error;
    ASSERT_TRUE(ViewFromProto(valid.view, valid.config, &back, &error)) << error;
  }
  for (const BadCase& c : cases) {
    v1::View msg = valid.view;
    c.Break(&msg);
    View out = sentinel;
    std::string error;
    EXPECT_FALSE(ViewFromProto(msg, valid.config, &out, &error)) << c.name;
    EXPECT_TRUE(Glob(error, c.error)) << c.name << ": " << error;
    EXPECT_TRUE(out == sentinel) << c.name << ": *out changed on error";
  }
  GameConfig bad = valid.config;
  bad.num_seats = 7;
  View out = sentinel;
  std::string error;
  EXPECT_FALSE(ViewFromProto(valid.view, bad, &out, &error));
  EXPECT_EQ(error, "config: num_seats: 7, expected 3..4");
}

// A value likely to break something: the edges of every range in use.
int64_t NastyValue(testing::SplitMix& rng) {
  static constexpr int64_t kValues[] = {-129, -128, -4,  -3,  -2,  -1,  0,    1,     2,     3,     4,     5,
                                        6,    7,    8,   12,  13,  18,  19,   24,    25,    53,    54,    71,
                                        72,   127,  128, 254, 255, 256, 1000, 32767, 32768, 65535, 65536, 1 << 30};
  return kValues[rng.Below(int(std::size(kValues)))];
}

// Sets one scalar field (or one element of a repeated one) somewhere in `m`
// to a nasty value, or adds or removes an element of a repeated field.
void MutateField(Message* m, testing::SplitMix& rng) {
  const Reflection* r = m->GetReflection();
  const google::protobuf::Descriptor* d = m->GetDescriptor();
  const FieldDescriptor* f = d->field(rng.Below(d->field_count()));
  if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    if (f->is_repeated()) {
      const int size = r->FieldSize(*m, f);
      if (size == 0 || rng.Below(8) == 0) {
        r->AddMessage(m, f);
      } else if (rng.Below(8) == 0) {
        r->RemoveLast(m, f);
      } else {
        MutateField(r->MutableRepeatedMessage(m, f, rng.Below(size)), rng);
      }
    } else {
      MutateField(r->MutableMessage(m, f), rng);
    }
    return;
  }
  const int64_t v = NastyValue(rng);
  if (f->is_repeated()) {
    const int size = r->FieldSize(*m, f);
    const int action = rng.Below(6);
    if (size > 0 && action == 0) {
      r->RemoveLast(m, f);
      return;
    }
    if (action == 1 || size == 0) {
      switch (f->cpp_type()) {
        case FieldDescriptor::CPPTYPE_UINT32:
          r->AddUInt32(m, f, uint32_t(v));
          break;
        case FieldDescriptor::CPPTYPE_INT32:
          r->AddInt32(m, f, int32_t(v));
          break;
        case FieldDescriptor::CPPTYPE_UINT64:
          r->AddUInt64(m, f, uint64_t(v) << rng.Below(64));
          break;
        default:
          break;
      }
      return;
    }
    const int i = rng.Below(size);
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_UINT32:
        r->SetRepeatedUInt32(m, f, i, uint32_t(v));
        break;
      case FieldDescriptor::CPPTYPE_INT32:
        r->SetRepeatedInt32(m, f, i, int32_t(v));
        break;
      case FieldDescriptor::CPPTYPE_UINT64:
        r->SetRepeatedUInt64(m, f, i, rng.Next());
        break;
      default:
        break;
    }
    return;
  }
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_UINT32:
      r->SetUInt32(m, f, uint32_t(v));
      break;
    case FieldDescriptor::CPPTYPE_INT32:
      r->SetInt32(m, f, int32_t(v));
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      r->SetUInt64(m, f, rng.Below(2) ? rng.Next() : uint64_t(v));
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      r->SetBool(m, f, !r->GetBool(*m, f));
      break;
    case FieldDescriptor::CPPTYPE_ENUM:
      r->SetEnumValue(m, f, int(v));
      break;
    default:
      break;
  }
}

// Whatever ViewFromProto accepts must be a view it can write and read again.
void CheckAcceptedIsStable(const View& v, const GameConfig& config) {
  v1::View again;
  ViewToProto(v, &again);
  View back{State()};
  std::string error;
  ASSERT_TRUE(ViewFromProto(again, config, &back, &error)) << error;
  ASSERT_TRUE(back == v);
}

TEST(ViewFromProto, RandomMutationsNeverCrash) {
  const std::vector<Sample> samples = Samples(97);
  ASSERT_GT(samples.size(), 100u);
  testing::SplitMix rng{12345};
  int accepted = 0, refused = 0, unparsable = 0;
  for (int round = 0; round < 20000; ++round) {
    const Sample& s = samples[size_t(rng.Below(int(samples.size())))];
    v1::View msg = s.view;
    if (round % 2 == 0) {
      for (int k = 1 + rng.Below(3); k > 0; --k) MutateField(&msg, rng);
    } else {
      // The bytes: flips, truncation, a duplicated stretch.
      std::string bytes = msg.SerializeAsString();
      const int kind = rng.Below(3);
      if (kind == 0) {
        for (int k = 1 + rng.Below(4); k > 0; --k)
          bytes[size_t(rng.Below(int(bytes.size())))] ^= char(1 << rng.Below(8));
      } else if (kind == 1) {
        bytes.resize(size_t(rng.Below(int(bytes.size()))));
      } else {
        const size_t at = size_t(rng.Below(int(bytes.size())));
        bytes.insert(at, bytes.substr(at, size_t(rng.Below(64))));
      }
      if (!msg.ParseFromString(bytes)) {
        ++unparsable;
        continue;
      }
    }
    View out{State()};
    std::string error;
    if (ViewFromProto(msg, s.config, &out, &error)) {
      ++accepted;
      CheckAcceptedIsStable(out, s.config);
    } else {
      ++refused;
      EXPECT_FALSE(error.empty());
    }
    if (HasFailure()) break;
  }
  std::cout << "[ mutations ] accepted " << accepted << ", refused " << refused << ", unparsable bytes " << unparsable
            << "\n";
  EXPECT_GT(refused, 1000);
  EXPECT_GT(accepted, 100);  // harmless changes (a count, a flag) go through
}

}  // namespace
}  // namespace metropolis::protocol
