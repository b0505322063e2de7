// The conversions of messages a seat, a client or a StoreGame caller sends into
// engine values (lib/protocol/convert.h), and the replays service's check of a
// stored game (services/replays/record.h). The first byte chooses the message,
// the second a configuration (ConfigFromByte) and the third how far a game is
// played on it (a seeded random game); the rest is the message's bytes. Bytes
// that do not parse as the message are skipped; for what parses:
//
//   0  PlayAnswer: ActionFromProto refuses with a message and leaves its output
//      alone, or gives an action whose code and message round-trip; applied to
//      the position it is legal (CheckAction empty, Apply succeeds, Validate
//      holds) or refused with a message and the position unchanged
//   1  GameConfig: ConfigFromProto refuses with a message and leaves its output
//      alone, or gives a configuration that passes ValidateConfig, starts a game
//      that plays, and round-trips through ConfigToProto
//   2  Event: EventFromProto refuses with a message, or round-trips
//   3  View (against the chosen configuration): ViewFromProto refuses with a
//      message and leaves its output alone, or gives a view that round-trips
//   4  StoreGameRequest: CheckRecord answers OK or INVALID_ARGUMENT with a
//      message, never crashes; an accepted record is a finished game of its
//      configuration that replays to the result it claims; its verifiable
//      chance is then accepted or refused with INVALID_ARGUMENT
#include <google/protobuf/stubs/logging.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/fuzz/fuzz_check.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/game.pb.h"
#include "metropolis/v1/gamehost.pb.h"
#include "metropolis/v1/replays.pb.h"
#include "services/replays/record.h"
#include "tests/fuzz/fuzz_games.h"

namespace metropolis {
namespace {

using fuzz::ConfigFromByte;

void FuzzAnswer(const v1::PlayAnswer& answer, State* s) {
  Action out = Action::Make(ActionType::kEndTurn);
  const Action untouched = out;
  std::string error;
  if (!protocol::ActionFromProto(answer.action(), &out, &error)) {
    FUZZ_CHECK(!error.empty(), "an action refused without a message");
    FUZZ_CHECK(out == untouched, "a refused action changed the output: " + error);
    return;
  }
  const std::optional<Action> decoded = Decode(Encode(out));
  FUZZ_CHECK(decoded && *decoded == out, "an accepted action's code does not decode to it: " + ActionToString(out));
  v1::Action again;
  protocol::ActionToProto(out, &again);
  Action back;
  FUZZ_CHECK(protocol::ActionFromProto(again, &back, &error) && back == out, "round trip: " + ActionToString(out));
  // What the game host does with an answer (services/gamehost/game.cc): CheckAction, then apply.
  const State before = *s;
  const std::string refused = s->CheckAction(out);
  const std::string applied = s->Apply(out);
  FUZZ_CHECK(refused.empty() == applied.empty(),
             ActionToString(out) + ": CheckAction says '" + refused + "', Apply '" + applied + "'");
  if (!applied.empty()) {
    FUZZ_CHECK(*s == before, ActionToString(out) + " was refused (" + applied + ") but changed the position");
    return;
  }
  const std::string invalid = s->Validate();
  FUZZ_CHECK(invalid.empty(), ActionToString(out) + " left an invalid position: " + invalid);
}

void FuzzConfig(const v1::GameConfig& in) {
  GameConfig out = ConfigFromByte(0xff);
  const GameConfig untouched = out;
  std::string error;
  if (!protocol::ConfigFromProto(in, &out, &error)) {
    FUZZ_CHECK(!error.empty(), "a configuration refused without a message");
    FUZZ_CHECK(out == untouched, "a refused configuration changed the output: " + error);
    return;
  }
  const std::string invalid = ValidateConfig(out);
  FUZZ_CHECK(invalid.empty(), "accepted a configuration that ValidateConfig refuses: " + invalid);
  v1::GameConfig again;
  protocol::ConfigToProto(out, &again);
  GameConfig back;
  FUZZ_CHECK(protocol::ConfigFromProto(again, &back, &error), "a written configuration does not read: " + error);
  FUZZ_CHECK(back == out, "a configuration does not round-trip");
  State s;
  FUZZ_CHECK(NewGame(out, &s, &error), "an accepted configuration starts no game: " + error);
  fuzz::PlaySteps(&s, in.random_board_seed(), 60);  // Validate() runs after every step in this build
}

bool SameEvent(const Event& x, const Event& y) {
  return x.type == y.type && x.seat == y.seat && x.other == y.other && x.a == y.a && x.b == y.b && x.c == y.c &&
         x.private_to == y.private_to && x.action == y.action;
}

void FuzzEvent(const v1::Event& in) {
  Event out;
  std::string error;
  if (!protocol::EventFromProto(in, &out, &error)) {
    FUZZ_CHECK(!error.empty(), "an event refused without a message");
    return;
  }
  v1::Event again;
  protocol::EventToProto(out, &again);
  Event back;
  FUZZ_CHECK(protocol::EventFromProto(again, &back, &error), "a written event does not read: " + error);
  FUZZ_CHECK(SameEvent(back, out), "an event does not round-trip: " + EventToString(out) + " | " + EventToString(back));
}

void FuzzView(const v1::View& in, const GameConfig& config, const State& s) {
  View out = MakeView(s, kNoSeat);
  const View untouched = out;
  std::string error;
  if (!protocol::ViewFromProto(in, config, &out, &error)) {
    FUZZ_CHECK(!error.empty(), "a view refused without a message");
    FUZZ_CHECK(out == untouched, "a refused view changed the output: " + error);
    return;
  }
  v1::View again;
  protocol::ViewToProto(out, &again);
  View back = untouched;
  FUZZ_CHECK(protocol::ViewFromProto(again, config, &back, &error), "a written view does not read: " + error);
  FUZZ_CHECK(back == out, "a view does not round-trip");
}

void FuzzStoreGame(const v1::StoreGameRequest& request) {
  GameConfig config;
  std::vector<Action> actions;
  const grpc::Status status = replays::CheckRecord(request.game(), &config, &actions);
  if (!status.ok()) {
    FUZZ_CHECK(status.error_code() == grpc::StatusCode::INVALID_ARGUMENT,
               "a record refused with status " + std::to_string(int(status.error_code())));
    FUZZ_CHECK(!status.error_message().empty(), "a record refused without a message");
    return;
  }
  FUZZ_CHECK(ValidateConfig(config).empty(), "accepted a record with an invalid configuration");
  State s;
  std::string error;
  FUZZ_CHECK(NewGame(config, &s, &error), error);
  for (const Action& a : actions) {
    error = s.Apply(a);
    FUZZ_CHECK(error.empty(), "accepted a record with an illegal action: " + ActionToString(a) + ": " + error);
  }
  FUZZ_CHECK(s.IsTerminal(), "accepted a record of an unfinished game");
  // Its verifiable chance (docs/CHANCE.md), as StoreGame checks it next: OK or
  // INVALID_ARGUMENT with a message, whatever the seed and commitment bytes are.
  const grpc::Status chance = replays::CheckVerifiableChance(request.game(), config, actions);
  FUZZ_CHECK(
      chance.ok() || (chance.error_code() == grpc::StatusCode::INVALID_ARGUMENT && !chance.error_message().empty()),
      "a record's chance refused with status " + std::to_string(int(chance.error_code())));
  FUZZ_CHECK(!chance.ok() || request.game().verifiable_seed().empty() == request.game().chance_commitment().empty(),
             "accepted a seed without its commitment, or a commitment without its seed");
}

}  // namespace
}  // namespace metropolis

// Bytes that are not a message make protobuf log a line each: thousands a second.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace metropolis;
  if (size < 3) return 0;
  const GameConfig config = ConfigFromByte(data[1]);
  const uint8_t* message = data + 3;
  const int message_size = int(size - 3);
  switch (data[0] % 5) {
    case 0: {
      v1::PlayAnswer answer;
      if (!answer.ParseFromArray(message, message_size)) return 0;
      State s(config);
      fuzz::PlaySteps(&s, data[1], data[2]);
      FuzzAnswer(answer, &s);
      break;
    }
    case 1: {
      v1::GameConfig in;
      if (in.ParseFromArray(message, message_size)) FuzzConfig(in);
      break;
    }
    case 2: {
      v1::Event in;
      if (in.ParseFromArray(message, message_size)) FuzzEvent(in);
      break;
    }
    case 3: {
      v1::View in;
      if (!in.ParseFromArray(message, message_size)) return 0;
      State s(config);
      fuzz::PlaySteps(&s, data[1], data[2]);
      FuzzView(in, config, s);
      break;
    }
    default: {
      v1::StoreGameRequest in;
      if (in.ParseFromArray(message, message_size)) FuzzStoreGame(in);
      break;
    }
  }
  return 0;
}
