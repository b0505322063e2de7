#include "services/replays/debug.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "lib/auth/authenticator.h"
#include "lib/auth/roles.h"
#include "lib/protocol/debug_limits.h"

namespace metropolis::replays {
namespace {

grpc::Status Invalid(const std::string& message) { return {grpc::StatusCode::INVALID_ARGUMENT, message}; }

constexpr int kMaxIdentities = 100;

}  // namespace

grpc::Status CheckDebug(const v1::CompletedGameRecord& record, int num_seats) {
  std::vector<bool> seen(size_t(std::max(num_seats, 0)), false);
  const uint32_t actions = uint32_t(record.actions_size());
  for (int i = 0; i < record.debug_size(); ++i) {
    const v1::SeatDebug& d = record.debug(i);
    const std::string at = "debug[" + std::to_string(i) + "]";
    if (d.seat() >= seen.size()) return Invalid(at + ".seat: " + std::to_string(d.seat()) + " is not a seat");
    if (seen[d.seat()]) return Invalid(at + ".seat: seat " + std::to_string(d.seat()) + " has debug twice");
    seen[d.seat()] = true;
    if (d.identity_id() != 0) return Invalid(at + ".identity_id: set by GetDebug only");
    if (d.recorded_from_step() > actions)
      return Invalid(at + ".recorded_from_step: " + std::to_string(d.recorded_from_step()) + " is past the " +
                     std::to_string(actions) + " actions");
    if (d.notes_dropped() > uint32_t(d.steps_size()))
      return Invalid(at + ".notes_dropped: more than the steps answered");
    size_t bytes = 0;
    int64_t last = int64_t(d.recorded_from_step()) - 1;
    for (const v1::StepDebug& s : d.steps()) {
      const std::string step_at = at + " step " + std::to_string(s.step());
      if (int64_t(s.step()) <= last || s.step() >= actions)
        return Invalid(step_at + ": steps go up from recorded_from_step and stay below the number of actions");
      last = s.step();
      if (s.note().size() > protocol::kMaxNoteBytes)
        return Invalid(step_at + ": a note of " + std::to_string(s.note().size()) + " bytes (at most " +
                       std::to_string(protocol::kMaxNoteBytes) + ")");
      if (s.has_evaluation() && !std::isfinite(s.evaluation()))
        return Invalid(step_at + ": the evaluation is not a finite number");
      bytes += s.note().size() + (s.has_evaluation() ? protocol::kEvaluationBytes : 0);
    }
    if (bytes > protocol::kMaxDebugBytes)
      return Invalid(at + ": " + std::to_string(bytes) + " bytes of notes and evaluations (at most " +
                     std::to_string(protocol::kMaxDebugBytes) + " per seat)");
  }
  return grpc::Status::OK;
}

grpc::Status DebugReaderOf(const auth::Principal& caller, const v1::GetDebugRequest& request, DebugReader* out) {
  *out = {};
  if (request.identities_size() > kMaxIdentities)
    return Invalid("identities: at most " + std::to_string(kMaxIdentities));
  for (int64_t id : request.identities())
    if (id < 1) return Invalid("identities: " + std::to_string(id) + " is not an identity");
  out->identities.assign(request.identities().begin(), request.identities().end());
  if (caller.service) {
    if (caller.name != auth::kGatewayRole)
      return {grpc::StatusCode::PERMISSION_DENIED,
              "a game's debug is its bots' authors': only the gateway's service token reads it for them"};
    if (out->identities.empty())
      return Invalid("identities: the gateway names whom it reads for (the person and their bots)");
    return grpc::Status::OK;
  }
  if (caller.admin) {
    out->every_seat = out->identities.empty();
    return grpc::Status::OK;
  }
  for (int64_t id : out->identities)
    if (id != caller.identity_id)
      return {grpc::StatusCode::PERMISSION_DENIED,
              "identities: " + std::to_string(id) + " is not the caller's; a token reads its own seats' debug"};
  out->identities = {caller.identity_id};
  return grpc::Status::OK;
}

void ReadableDebug(const v1::CompletedGameRecord& game, const std::vector<v1::SeatDebug>& stored,
                   const DebugReader& reader, v1::GameDebug* out, bool* any_seat) {
  out->set_game_id(game.game_id());
  *any_seat = false;
  const auto reads = [&](int64_t identity) {
    if (reader.every_seat) return true;
    return identity != 0 &&
           std::find(reader.identities.begin(), reader.identities.end(), identity) != reader.identities.end();
  };
  for (const v1::SeatRecord& seat : game.seats()) {
    if (!reads(seat.identity_id())) continue;
    *any_seat = true;
    for (const v1::SeatDebug& d : stored) {
      if (d.seat() != seat.seat()) continue;
      v1::SeatDebug* copy = out->add_seats();
      *copy = d;
      copy->set_identity_id(seat.identity_id());
    }
  }
}

}  // namespace metropolis::replays
