// The Matchmaker service's gRPC wiring (sync API): tokens, requests and
// statuses here; tickets in ticket_store.h, rounds in matchmaker.h.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "lib/auth/authenticator.h"
#include "metropolis/v1/matchmaker.grpc.pb.h"
#include "services/matchmaker/matchmaker.h"
#include "services/matchmaker/tables/table_api.h"
#include "services/matchmaker/waiters.h"

namespace metropolis::matchmaker {

// The ladders the matchmaker serves, refreshed from their configuration.
class LadderSource {
 public:
  virtual ~LadderSource() = default;
  // kFresh: the caller missed a ladder; read the configuration as it is now
  // (a ladder just created is found at once).
  enum class Read { kCached, kFresh };
  virtual std::vector<LadderConfig> Ladders(Read read = Read::kCached) = 0;
};

// A player's rating μ on a ladder; the ladder's μ for a newcomer.
class RatingSource {
 public:
  virtual ~RatingSource() = default;
  virtual double Mu(const LadderConfig& ladder, int64_t identity_id) = 0;
};

// The ladder `id` (read again fresh when the cached list misses it: a ladder
// just created is found at once).
bool FindLadder(LadderSource* ladders, const std::string& id, LadderConfig* out);

struct ServiceOptions {
  // How often the waiting streams' tickets are read, all in one call (it is
  // their heartbeat too; waiters.h). A seat is heard at once whatever this is.
  int64_t poll_ms = 500;
  // A stream hears its seat as soon as it is assigned (the store's notice).
  // Off: at the next read (tests only).
  bool wake_on_assign = true;
  int64_t progress_every_ms = 1000;  // a Queued update at least this often
  // Before a seat is handed out again (a resumed assigned ticket), its host is
  // asked whether the game is over. Off only as a negative control.
  bool check_resumed_seats = true;
  MatchmakerMetrics* metrics = nullptr;  // tickets queued; null: nothing is counted
  tables::TableApi* tables = nullptr;    // friends' tables; null: UNIMPLEMENTED
};

class MatchmakerService final : public v1::Matchmaker::Service {
 public:
  // `games` answers whether a resumed seat's game is over (nullptr: never asked).
  // Times are the ticket store's (TicketStore::Now, Redis's clock), which every
  // replica shares.
  MatchmakerService(TicketStore* tickets, LadderSource* ladders, RatingSource* ratings, auth::Authenticator* auth,
                    GameCreator* games, ServiceOptions options = {});

  grpc::Status Enqueue(grpc::ServerContext* context, const v1::EnqueueRequest* request,
                       grpc::ServerWriter<v1::EnqueueUpdate>* writer) override;
  grpc::Status Cancel(grpc::ServerContext* context, const v1::CancelRequest* request,
                      v1::CancelResponse* response) override;
  grpc::Status GetQueue(grpc::ServerContext* context, const v1::GetQueueRequest* request,
                        v1::QueueStatus* response) override;
  grpc::Status RegisterHost(grpc::ServerContext* context, const v1::RegisterHostRequest* request,
                            v1::RegisterHostResponse* response) override;

  grpc::Status CreateTable(grpc::ServerContext* context, const v1::CreateTableRequest* request,
                           v1::FriendsTable* response) override;
  grpc::Status GetTable(grpc::ServerContext* context, const v1::GetTableRequest* request,
                        v1::FriendsTable* response) override;
  grpc::Status JoinTable(grpc::ServerContext* context, const v1::TableRequest* request,
                         v1::FriendsTable* response) override;
  grpc::Status LeaveTable(grpc::ServerContext* context, const v1::TableRequest* request,
                          v1::FriendsTable* response) override;
  grpc::Status StartTable(grpc::ServerContext* context, const v1::TableRequest* request,
                          v1::FriendsTable* response) override;
  grpc::Status RematchTable(grpc::ServerContext* context, const v1::RematchTableRequest* request,
                            v1::FriendsTable* response) override;

 private:
  grpc::Status Authenticate(const grpc::ServerContext& context, auth::Principal* out);
  bool FindLadder(const std::string& id, LadderConfig* out);
  bool GameOver(const TicketInfo& ticket);
  // Who a table call acts for: the API token's identity, or the person the
  // gateway names. A visitor (nobody) only when `visitor_ok`.
  grpc::Status TableCaller(const grpc::ServerContext& context, const v1::TablePerson& acting_for, bool visitor_ok,
                           tables::Member* out);

  TicketStore* tickets_;
  LadderSource* ladders_;
  RatingSource* ratings_;
  auth::Authenticator* auth_;
  GameCreator* games_;
  const ServiceOptions options_;
  TicketWaiters waiters_;  // the tickets of the streams waiting here
};

}  // namespace metropolis::matchmaker
