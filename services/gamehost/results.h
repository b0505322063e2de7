// Where a game host's completed games end up: the replays service stores each
// one and answers with the stored game's digest, then the ratings service rates
// its result, sent with that digest (ratings has Replays confirm the digest
// before it rates). Both calls are idempotent on the game id, so a delivery
// repeated after a crash stores and rates nothing twice. The outbox (outbox.h)
// calls this.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <memory>
#include <string>

#include "metropolis/v1/ratings.grpc.pb.h"
#include "metropolis/v1/replays.grpc.pb.h"
#include "services/gamehost/sink.h"

namespace metropolis::gamehost {

// The record the replays service stores, from the host's completed game.
void CompletedGameToProto(const CompletedGame& game, v1::CompletedGameRecord* out);

class ResultsClient {
 public:
  virtual ~ResultsClient() = default;
  // OK once the game is stored and, with a ratings service, rated. Otherwise
  // the failed call's status, and in *failed_at "replays" or "ratings".
  virtual grpc::Status StoreThenRate(const v1::CompletedGameRecord& game, const std::string& request_id,
                                     std::string* failed_at) = 0;
};

// What ratings needs of a game (RateGameRequest.outcome), from its record.
void OutcomeOf(const v1::CompletedGameRecord& game, v1::GameOutcome* out);

// Whether a failed delivery can never succeed: the service judged the game
// itself (a retry sends the same bytes).
bool RefusedForGood(const grpc::Status& status);

struct ResultsClientOptions {
  std::string replays_address;  // host:port
  std::string replays_token;    // the replays service's store token
  std::string ratings_address;  // empty: games are stored, not rated
  std::string ratings_token;
  int64_t call_timeout_ms = 10'000;
};

class GrpcResultsClient final : public ResultsClient {
 public:
  explicit GrpcResultsClient(ResultsClientOptions options);
  grpc::Status StoreThenRate(const v1::CompletedGameRecord& game, const std::string& request_id,
                             std::string* failed_at) override;

 private:
  const ResultsClientOptions options_;
  std::unique_ptr<v1::Replays::Stub> replays_;
  std::unique_ptr<v1::Ratings::Stub> ratings_;  // null without a ratings service
};

}  // namespace metropolis::gamehost
