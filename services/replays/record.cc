#include "services/replays/record.h"

#include <algorithm>

#include "engine/notation.h"
#include "lib/chance/verifiable.h"
#include "lib/chance/verify.h"
#include "lib/common/grpc_util.h"
#include "lib/protocol/convert.h"

namespace metropolis::replays {
namespace {

grpc::Status Invalid(std::string message) { return {grpc::StatusCode::INVALID_ARGUMENT, std::move(message)}; }

}  // namespace

bool ValidGameId(const std::string& id) {
  return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

std::string CodesToBytes(const v1::CompletedGameRecord& g) {
  std::string out;
  out.reserve(size_t(g.actions_size()) * 8);
  for (uint64_t code : g.actions())
    for (int shift = 56; shift >= 0; shift -= 8) out.push_back(char((code >> shift) & 0xFF));
  return out;
}

void BytesToCodes(const std::string& bytes, v1::CompletedGameRecord* g) {
  for (size_t i = 0; i + 8 <= bytes.size(); i += 8) {
    uint64_t code = 0;
    for (size_t j = 0; j < 8; ++j) code = (code << 8) | uint8_t(bytes[i + j]);
    g->add_actions(code);
  }
}

grpc::Status CheckShape(const v1::CompletedGameRecord& record, GameConfig* config, std::vector<Action>* actions) {
  if (!ValidGameId(record.game_id()))
    return Invalid("game.game_id: " + services::Quoted(record.game_id()) +
                   " must be 1 to 64 letters, digits, '-' or '_'");
  std::string error;
  if (!record.has_config()) return Invalid("game.config: missing");
  if (!protocol::ConfigFromProto(record.config(), config, &error)) return Invalid("game.config: " + error);
  if (record.seats_size() != config->num_seats) {
    return Invalid("game.seats: " + std::to_string(record.seats_size()) + " given for " +
                   std::to_string(config->num_seats) + " seats");
  }
  for (int i = 0; i < record.seats_size(); ++i) {
    if (record.seats(i).seat() != uint32_t(i))
      return Invalid("game.seats[" + std::to_string(i) + "].seat: out of order");
    if (record.seats(i).name().empty() || record.seats(i).name().size() > 100)
      return Invalid("game.seats[" + std::to_string(i) + "].name: 1 to 100 characters");
    if (record.seats(i).identity_id() < 0)
      return Invalid("game.seats[" + std::to_string(i) + "].identity_id: negative");
    if (!v1::SeatKind_IsValid(record.seats(i).kind()))
      return Invalid("game.seats[" + std::to_string(i) + "].kind: " + std::to_string(int(record.seats(i).kind())) +
                     " is not a seat kind");
  }
  if (record.actions_size() > int(config->options.max_actions))
    return Invalid("game.actions: more than the configuration's max_actions");
  actions->clear();
  actions->reserve(size_t(record.actions_size()));
  for (int i = 0; i < record.actions_size(); ++i) {
    const std::optional<Action> a = Decode(record.actions(i));
    if (!a) return Invalid("game.actions[" + std::to_string(i) + "]: no action has this code");
    actions->push_back(*a);
  }
  return grpc::Status::OK;
}

// A resigned game (END_REASON_RESIGNED) ends where a seat resigned, before the
// engine says it is over: the seat is one of the game's, it ranks last as a
// forfeit, and nobody won.
grpc::Status CheckResignation(const v1::CompletedGameRecord& record, const State& state) {
  const v1::GameResult& claimed = record.result();
  if (claimed.reason() != v1::END_REASON_RESIGNED) {
    if (claimed.has_resigned_seat()) return Invalid("game.result.resigned_seat: set for a game nobody resigned");
    return grpc::Status::OK;
  }
  if (state.IsTerminal())
    return Invalid("game.result: claims a resignation, but the game was over after the last action");
  if (!claimed.has_resigned_seat() || int(claimed.resigned_seat()) >= state.num_seats())
    return Invalid("game.result.resigned_seat: not a seat of the game");
  const int seat = int(claimed.resigned_seat());
  const auto resigned = std::find_if(record.seats().begin(), record.seats().end(),
                                     [&](const v1::SeatRecord& s) { return int(s.seat()) == seat; });
  if (resigned == record.seats().end() || !resigned->forfeited())
    return Invalid("game.seats: the seat that resigned (" + std::to_string(seat) + ") is not forfeited");
  if (claimed.winner() != -1) return Invalid("game.result.winner: a resigned game has no winner");
  return grpc::Status::OK;
}

grpc::Status CheckResult(const v1::CompletedGameRecord& record, const State& state) {
  const v1::GameResult& claimed = record.result();
  if (grpc::Status s = CheckResignation(record, state); !s.ok()) return s;
  const bool resigned = claimed.reason() == v1::END_REASON_RESIGNED;
  if (!resigned && !state.IsTerminal()) return Invalid("game.actions: the game is not over after the last action");
  v1::GameResult replayed;
  protocol::ResultToProto(state, &replayed);
  if (resigned) replayed.set_reason(v1::END_REASON_RESIGNED);
  if (claimed.winner() != replayed.winner() || claimed.reason() != replayed.reason()) {
    return Invalid("game.result: claims winner " + std::to_string(claimed.winner()) + ", the actions give " +
                   std::to_string(replayed.winner()));
  }
  if (claimed.vp_size() != replayed.vp_size() ||
      !std::equal(claimed.vp().begin(), claimed.vp().end(), replayed.vp().begin()))
    return Invalid("game.result.vp: does not match the actions");
  return grpc::Status::OK;
}

grpc::Status CheckVerifiableChance(const v1::CompletedGameRecord& record, const GameConfig& config,
                                   const std::vector<Action>& actions) {
  const std::string& seed_bytes = record.verifiable_seed();
  const std::string& commitment = record.chance_commitment();
  if (seed_bytes.empty() && commitment.empty()) return grpc::Status::OK;
  chance::Seed seed;
  if (!chance::FromBytes(seed_bytes, &seed))
    return Invalid("game.verifiable_seed: " + std::to_string(seed_bytes.size()) + " bytes, not " +
                   std::to_string(chance::kSeedBytes));
  if (record.chance_seed() != 0) return Invalid("game.chance_seed: set beside a verifiable seed");
  if (commitment != chance::AsBytes(chance::CommitTo(seed)))
    return Invalid("game.chance_commitment: not the commitment to game.verifiable_seed");
  chance::ChanceCheck check;
  if (!chance::CheckChance(config, actions, chance::VerifiableStreams(seed), &check))
    return Invalid("game.actions: " + check.error);
  return grpc::Status::OK;
}

grpc::Status CheckRecord(const v1::CompletedGameRecord& record, GameConfig* config, std::vector<Action>* actions,
                         State* final_state) {
  if (grpc::Status s = CheckShape(record, config, actions); !s.ok()) return s;
  State state;
  std::string error;
  if (!NewGame(*config, &state, &error)) return Invalid("game.config: " + error);
  for (size_t i = 0; i < actions->size(); ++i) {
    const Action& a = (*actions)[i];
    if (state.IsTerminal()) return Invalid("game.actions[" + std::to_string(i) + "]: the game was already over");
    if (std::string e = state.Apply(a); !e.empty())
      return Invalid("game.actions[" + std::to_string(i) + "]: " + ActionToString(a) + ": " + e);
  }
  grpc::Status result = CheckResult(record, state);
  if (final_state) *final_state = std::move(state);
  return result;
}

grpc::Status PositionAt(const GameConfig& config, const std::vector<Action>& actions, uint32_t step, int viewer,
                        v1::PositionResponse* out) {
  if (step > actions.size())
    return {grpc::StatusCode::OUT_OF_RANGE,
            "step " + std::to_string(step) + ": the game has " + std::to_string(actions.size()) + " steps"};
  if (viewer < kNoSeat || viewer >= config.num_seats)
    return Invalid("viewer: " + std::to_string(viewer) + " is not a seat (or -1)");
  State state;
  std::string error;
  if (!NewGame(config, &state, &error)) return {grpc::StatusCode::INTERNAL, "stored configuration: " + error};
  KnowledgeTracker tracker(viewer);
  tracker.Reset(state);
  std::vector<Event> events;
  for (uint32_t i = 0; i < step; ++i) {
    events.clear();
    state.ApplyUnchecked(actions[i], &events);
    for (const Event& e : events) tracker.Observe(MaskEvent(e, viewer));
  }
  out->set_step(step);
  protocol::ViewToProto(MakeView(state, viewer, &tracker), out->mutable_view());
  if (step > 0) {
    protocol::ActionToProto(actions[step - 1], out->mutable_action(), {.want_text = true});
    for (const Event& e : events) protocol::EventToProto(MaskEvent(e, viewer), out->add_events(), {.want_text = true});
  }
  // Stored games are finished, so nothing of a position is secret any more.
  out->set_notation(ToNotation(state));
  return grpc::Status::OK;
}

}  // namespace metropolis::replays
