// The Tournaments service's gRPC wiring (sync API, hosted by the matchmaker):
// tokens, requests and statuses here; the schedule in schedule.h, storage in
// store.h, availability in roster_store.h, scheduling in runner.h.
#pragma once

#include "lib/auth/authenticator.h"
#include "lib/common/clock.h"
#include "metropolis/v1/tournaments.grpc.pb.h"
#include "services/matchmaker/tournaments/entrants.h"
#include "services/matchmaker/tournaments/roster_store.h"
#include "services/matchmaker/tournaments/store.h"

namespace metropolis::matchmaker {

struct CompeteOptions {
  int64_t poll_ms = 200;            // how often a Compete stream reads its inbox
  int64_t heartbeat_ttl_ms = 5000;  // availability lapses this long after the stream stops
  int64_t status_every_ms = 5000;   // a CompeteStatus at least this often
  int max_capacity = 16;
};

class TournamentsService final : public v1::Tournaments::Service {
 public:
  // Compete's heartbeats are on `clock`'s wall time (UnixMillis).
  TournamentsService(TournamentStore* store, EntrantDirectory* entrants, RosterStore* roster, auth::Authenticator* auth,
                     const services::Clock* clock, CompeteOptions options = {});

  grpc::Status CreateTournament(grpc::ServerContext* context, const v1::CreateTournamentRequest* request,
                                v1::Tournament* response) override;
  grpc::Status GetTournament(grpc::ServerContext* context, const v1::GetTournamentRequest* request,
                             v1::Tournament* response) override;
  grpc::Status ListTournaments(grpc::ServerContext* context, const v1::ListTournamentsRequest* request,
                               v1::ListTournamentsResponse* response) override;
  grpc::Status ListTournamentGames(grpc::ServerContext* context, const v1::ListTournamentGamesRequest* request,
                                   v1::ListTournamentGamesResponse* response) override;
  grpc::Status CancelTournament(grpc::ServerContext* context, const v1::CancelTournamentRequest* request,
                                v1::Tournament* response) override;
  grpc::Status Compete(grpc::ServerContext* context, const v1::CompeteRequest* request,
                       grpc::ServerWriter<v1::CompeteUpdate>* writer) override;
  grpc::Status JoinTournament(grpc::ServerContext* context, const v1::JoinTournamentRequest* request,
                              v1::Tournament* response) override;
  grpc::Status LeaveTournament(grpc::ServerContext* context, const v1::LeaveTournamentRequest* request,
                               v1::Tournament* response) override;

 private:
  // JoinTournament and LeaveTournament.
  grpc::Status Register(grpc::ServerContext* context, const std::string& id, int64_t identity_id, bool join,
                        v1::Tournament* response);
  grpc::Status Describe(const std::string& id, v1::Tournament* out);

  TournamentStore* store_;
  EntrantDirectory* entrants_;
  RosterStore* roster_;
  auth::Authenticator* auth_;
  const services::Clock* const clock_;
  const CompeteOptions options_;
};

// The request as a spec with every default filled in; INVALID_ARGUMENT naming
// the field when it cannot be one. A seed of 0 is drawn; a start must be after
// `now_ms`.
grpc::Status SpecFromRequest(const v1::CreateTournamentRequest& request, int64_t now_ms, TournamentSpec* out);

// The message of a tournament and its games: progress and standings.
void TournamentToProto(const TournamentRow& row, const std::vector<TournamentGameRow>& games, v1::Tournament* out);

}  // namespace metropolis::matchmaker
