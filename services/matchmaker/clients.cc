#include "services/matchmaker/clients.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include "lib/common/credentials.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"

namespace metropolis::matchmaker {

LadderConfig ToLadderConfig(const v1::Ladder& s, std::string* error) {
  LadderConfig l;
  l.id = s.id();
  l.season = int(s.season());
  l.decision_ms = uint32_t(s.decision_ms());
  l.time_bank_ms = uint32_t(s.time_bank_ms());
  l.mu = s.mu();
  l.rules.seats = s.seats();
  l.rules.allow_three_after_ms = s.allow_three_after_ms();
  l.rules.bot_fill_after_ms = s.bot_fill_after_ms();
  // Windows in μ points: a fraction of the ladder's initial σ at once, widening.
  l.rules.window_base = s.sigma() * 0.36;
  l.rules.window_per_second = s.sigma() * 0.06;
  l.rules.window_max = s.sigma() * 3;
  if (!ParseLadderOptions(s.ruleset(), s.options(), &l.options, error)) *error = "ladder " + s.id() + ": " + *error;
  return l;
}

GrpcLadderSource::GrpcLadderSource(const std::string& address, std::string token, int64_t refresh_ms)
    : stub_(v1::Accounts::NewStub(services::Dial(address))), token_(std::move(token)), refresh_ms_(refresh_ms) {}

std::vector<LadderConfig> GrpcLadderSource::Ladders(Read read) {
  // A fresh read reflects the configuration at least as new as the call: it
  // reads again unless another caller did after this one started (waiting on
  // the lock), so concurrent misses cost one call.
  const auto called = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (read == Read::kFresh ? read_at_ >= called : now < until_) return cached_;
  read_at_ = now;
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + token_);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  v1::ListLaddersResponse response;
  if (grpc::Status s = stub_->ListLadders(&context, v1::ListLaddersRequest(), &response); !s.ok()) {
    services::LogWarning("ladders not refreshed", {{"error", s.error_message()}});
    until_ = now + std::chrono::seconds(1);
    return cached_;
  }
  cached_.clear();
  for (const v1::Ladder& ladder : response.ladders()) {
    std::string error;
    LadderConfig l = ToLadderConfig(ladder, &error);
    if (!error.empty()) {
      services::LogWarning("ladder left out", {{"ladder", ladder.id()}, {"error", error}});
      continue;
    }
    cached_.push_back(std::move(l));
  }
  until_ = now + std::chrono::milliseconds(refresh_ms_);
  return cached_;
}

GrpcRatingSource::GrpcRatingSource(const std::string& address, std::string token)
    : stub_(v1::Ratings::NewStub(services::Dial(address))), token_(std::move(token)) {}

double GrpcRatingSource::Mu(const LadderConfig& ladder, int64_t identity_id) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + token_);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  v1::GetPlayerRatingRequest request;
  request.set_ladder(ladder.id);
  request.set_season(uint32_t(ladder.season));
  request.set_identity_id(identity_id);
  v1::PlayerRating rating;
  const grpc::Status s = stub_->GetPlayerRating(&context, request, &rating);
  if (s.ok()) return rating.mu();
  if (s.error_code() != grpc::StatusCode::NOT_FOUND)
    services::LogWarning("rating unknown; matched as a newcomer",
                         {{"identity", std::to_string(identity_id)}, {"error", s.error_message()}});
  return ladder.mu;
}

GrpcGameResults::GrpcGameResults(const std::string& address, std::string token)
    : stub_(v1::Replays::NewStub(services::Dial(address))), token_(std::move(token)) {}

grpc::Status GrpcGameResults::Results(const std::vector<std::string>& game_ids, std::vector<StoredResult>* out) {
  out->clear();
  if (game_ids.empty()) return grpc::Status::OK;
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + token_);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  v1::GetResultsRequest request;
  for (const std::string& id : game_ids) request.add_game_ids(id);
  v1::GetResultsResponse response;
  if (grpc::Status s = stub_->GetResults(&context, request, &response); !s.ok()) return s;
  for (const v1::StoredGameSummary& g : response.games()) {
    StoredResult r;
    r.game_id = g.game_id();
    r.winner = g.result().winner();
    r.vp.assign(g.result().vp().begin(), g.result().vp().end());
    for (const v1::SeatRecord& seat : g.seats()) r.forfeited.push_back(seat.forfeited());
    out->push_back(std::move(r));
  }
  return grpc::Status::OK;
}

grpc::Status GrpcGameResults::Reveal(const std::string& tournament, bool whole,
                                     const std::vector<std::string>& game_ids) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + token_);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  v1::RevealGamesRequest request;
  request.set_tournament(tournament);
  request.set_whole_tournament(whole);
  for (const std::string& id : game_ids) request.add_game_ids(id);
  v1::RevealGamesResponse response;
  return stub_->RevealGames(&context, request, &response);
}

v1::GameHost::Stub* GrpcGameCreator::Stub(const std::string& host) {
  std::lock_guard lock(mutex_);
  auto& s = stubs_[host];
  if (!s) s = v1::GameHost::NewStub(services::Dial(host));
  return s.get();
}

grpc::Status GrpcGameCreator::Create(const std::string& host, const v1::CreateGameRequest& request,
                                     v1::CreateGameResponse* response) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + admin_token_);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
  // The round's (or the scheduler's) request id and the game id go with the call,
  // so the host's lines about the game carry them too.
  services::PropagateRequestId(&context, request.game_id());
  return Stub(host)->CreateGame(&context, request, response);
}

grpc::Status GrpcGameCreator::Probe(const std::string& host, const std::string& game_id) {
  v1::GameInfo info;
  return Lookup(host, game_id, &info);
}

grpc::Status GrpcGameCreator::Lookup(const std::string& host, const std::string& game_id, v1::GameInfo* out) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + admin_token_);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  services::PropagateRequestId(&context, game_id);
  v1::GetGameRequest request;
  request.set_game_id(game_id);
  return Stub(host)->GetGame(&context, request, out);
}

grpc::Status GrpcGameCreator::SeatsOf(const std::string& host, const v1::SeatsOfRequest& request,
                                      v1::SeatsOfResponse* out) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + admin_token_);
  // Short: a round waits for it, and a host too slow to answer is skipped.
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
  return Stub(host)->SeatsOf(&context, request, out);
}

GrpcEntrantDirectory::GrpcEntrantDirectory(const std::string& address, std::string token)
    : names_(services::Dial(address), std::move(token)) {}

grpc::Status GrpcEntrantDirectory::Names(const std::vector<int64_t>& ids,
                                         std::unordered_map<int64_t, std::string>* out) {
  return names_.Names(ids, out);
}

}  // namespace metropolis::matchmaker
