#include "services/gamehost/results.h"

#include <grpcpp/channel.h>

#include <chrono>

#include "lib/chance/verifiable.h"
#include "lib/common/credentials.h"
#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"
#include "lib/protocol/convert.h"

namespace metropolis::gamehost {

static_assert(int(EndReason::kWon) == v1::END_REASON_WON && int(EndReason::kLengthCap) == v1::END_REASON_LENGTH_CAP &&
                  int(EndReason::kAborted) == v1::END_REASON_ABORTED &&
                  int(EndReason::kResigned) == v1::END_REASON_RESIGNED,
              "gamehost::EndReason numbers its values as v1::EndReason does");

void CompletedGameToProto(const CompletedGame& g, v1::CompletedGameRecord* out) {
  out->set_game_id(g.game_id);
  out->set_ladder(g.ladder);
  out->set_season(g.season);
  out->set_tournament(g.tournament);
  protocol::ConfigToProto(g.record.config, out->mutable_config());
  for (size_t i = 0; i < g.record.players.size(); ++i) {
    v1::SeatRecord* s = out->add_seats();
    s->set_seat(uint32_t(i));
    s->set_name(g.record.players[i]);
    if (i < g.fallback_decisions.size()) s->set_fallback_decisions(g.fallback_decisions[i]);
    if (i < g.identity_ids.size()) s->set_identity_id(g.identity_ids[i]);
    if (i < g.built_in.size()) s->set_kind(g.built_in[i] ? v1::SEAT_KIND_BUILT_IN : v1::SEAT_KIND_NETWORK);
    if (i < g.forfeited.size()) s->set_forfeited(g.forfeited[i]);
  }
  v1::GameResult* r = out->mutable_result();
  r->set_reason(v1::EndReason(int(g.reason)));
  r->set_winner(g.record.winner.value_or(kNoSeat));
  for (int v : g.vp) r->add_vp(uint32_t(v));
  r->set_actions(uint32_t(g.record.actions.size()));
  if (g.resigned_seat >= 0) r->set_resigned_seat(uint32_t(g.resigned_seat));
  out->mutable_actions()->Reserve(int(g.record.actions.size()));
  for (const Action& a : g.record.actions) out->add_actions(Encode(a));
  out->set_created_unix_ms(g.created_unix_ms);
  out->set_finished_unix_ms(g.finished_unix_ms);
  out->set_chance_seed(g.record.seed.value_or(0));
  for (size_t i = 0; i < g.debug.size(); ++i)
    if (!g.debug[i].empty()) g.debug[i].ToProto(uint32_t(i), g.debug_from_step, out->add_debug());
  if (chance::Seed seed; chance::FromBytes(g.verifiable_seed, &seed)) {
    out->set_verifiable_seed(g.verifiable_seed);
    out->set_chance_commitment(std::string(chance::AsBytes(chance::CommitTo(seed))));
  }
}

void OutcomeOf(const v1::CompletedGameRecord& game, v1::GameOutcome* out) {
  out->set_ladder(game.ladder());
  out->set_season(game.season());
  *out->mutable_result() = game.result();
  std::vector<const v1::SeatRecord*> by_seat(size_t(game.seats_size()), nullptr);
  for (const v1::SeatRecord& s : game.seats())
    if (s.seat() < by_seat.size()) by_seat[s.seat()] = &s;
  for (const v1::SeatRecord* s : by_seat) {
    v1::OutcomeSeat* seat = out->add_seats();
    if (!s) continue;
    seat->set_identity_id(s->identity_id());
    seat->set_forfeited(s->forfeited());
  }
}

bool RefusedForGood(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
         status.error_code() == grpc::StatusCode::ALREADY_EXISTS;
}

GrpcResultsClient::GrpcResultsClient(ResultsClientOptions options)
    : options_(std::move(options)), replays_(v1::Replays::NewStub(services::Dial(options_.replays_address))) {
  if (!options_.ratings_address.empty()) ratings_ = v1::Ratings::NewStub(services::Dial(options_.ratings_address));
}

grpc::Status GrpcResultsClient::StoreThenRate(const v1::CompletedGameRecord& game, const std::string& request_id,
                                              std::string* failed_at) {
  services::LogContext log_context(request_id, game.game_id());
  const auto deadline = [this] {
    return std::chrono::system_clock::now() + std::chrono::milliseconds(options_.call_timeout_ms);
  };
  std::string digest;  // of the game as Replays stored it: what ratings has Replays confirm
  {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + options_.replays_token);
    context.set_deadline(deadline());
    services::PropagateRequestId(&context);
    v1::StoreGameRequest request;
    *request.mutable_game() = game;
    v1::StoreGameResponse response;
    if (grpc::Status s = replays_->StoreGame(&context, request, &response); !s.ok()) {
      *failed_at = "replays";
      return s;
    }
    digest = response.digest();
  }
  if (!ratings_) return grpc::Status::OK;
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + options_.ratings_token);
  context.set_deadline(deadline());
  services::PropagateRequestId(&context);
  v1::RateGameRequest rate;
  rate.set_game_id(game.game_id());
  rate.set_digest(digest);
  OutcomeOf(game, rate.mutable_outcome());
  v1::RateGameResponse response;
  if (grpc::Status s = ratings_->RateGame(&context, rate, &response); !s.ok()) {
    *failed_at = "ratings";
    return s;
  }
  if (!response.rated() && !response.already_rated())
    services::LogInfo("game not rated", {{"game", game.game_id()}, {"reason", response.not_rated_reason()}});
  return grpc::Status::OK;
}

}  // namespace metropolis::gamehost
