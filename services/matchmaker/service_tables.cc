// MatchmakerService's friends' tables calls: who acts, then tables/table_api.h.
#include "lib/auth/roles.h"
#include "lib/common/grpc_util.h"
#include "lib/common/request_id.h"
#include "services/matchmaker/service.h"

namespace metropolis::matchmaker {
namespace {
constexpr size_t kMaxName = 64;
}  // namespace

grpc::Status MatchmakerService::TableCaller(const grpc::ServerContext& context, const v1::TablePerson& acting_for,
                                            bool visitor_ok, tables::Member* out) {
  if (!options_.tables) return {grpc::StatusCode::UNIMPLEMENTED, "this matchmaker serves no friends' tables"};
  auth::Principal who;
  if (grpc::Status s = Authenticate(context, &who); !s.ok()) return s;
  if (who.identity_id != 0) {
    *out = {who.identity_id, who.name};  // an API token acts for its own identity, whatever it names
  } else if (auth::MayActForPeople(who)) {
    if (acting_for.identity_id() < 0 || (acting_for.identity_id() == 0 && !visitor_ok))
      return {grpc::StatusCode::INVALID_ARGUMENT, "acting_for.identity_id: the signed-in person is required"};
    if (acting_for.identity_id() > 0 && (acting_for.name().empty() || acting_for.name().size() > kMaxName))
      return {grpc::StatusCode::INVALID_ARGUMENT, "acting_for.name: 1 to 64 bytes"};
    *out = {acting_for.identity_id(), acting_for.name()};
  } else {
    return {grpc::StatusCode::PERMISSION_DENIED,
            "friends' tables take a player's or a bot's API token, or the gateway's acting for a person"};
  }
  return grpc::Status::OK;
}

grpc::Status MatchmakerService::CreateTable(grpc::ServerContext* context, const v1::CreateTableRequest* request,
                                            v1::FriendsTable* response) {
  services::CallLogContext call(*context);
  tables::Member who;
  if (grpc::Status s = TableCaller(*context, request->acting_for(), false, &who); !s.ok()) return s;
  return options_.tables->Create(who, request->settings(), response);
}

grpc::Status MatchmakerService::GetTable(grpc::ServerContext* context, const v1::GetTableRequest* request,
                                         v1::FriendsTable* response) {
  services::CallLogContext call(*context);
  tables::Member who;
  if (grpc::Status s = TableCaller(*context, request->acting_for(), true, &who); !s.ok()) return s;
  return options_.tables->Get(who, request->table_id(), request->claim_seat(), response);
}

grpc::Status MatchmakerService::JoinTable(grpc::ServerContext* context, const v1::TableRequest* request,
                                          v1::FriendsTable* response) {
  services::CallLogContext call(*context);
  tables::Member who;
  if (grpc::Status s = TableCaller(*context, request->acting_for(), false, &who); !s.ok()) return s;
  return options_.tables->Join(who, request->table_id(), response);
}

grpc::Status MatchmakerService::LeaveTable(grpc::ServerContext* context, const v1::TableRequest* request,
                                           v1::FriendsTable* response) {
  services::CallLogContext call(*context);
  tables::Member who;
  if (grpc::Status s = TableCaller(*context, request->acting_for(), false, &who); !s.ok()) return s;
  return options_.tables->Leave(who, request->table_id(), response);
}

grpc::Status MatchmakerService::StartTable(grpc::ServerContext* context, const v1::TableRequest* request,
                                           v1::FriendsTable* response) {
  services::CallLogContext call(*context);
  tables::Member who;
  if (grpc::Status s = TableCaller(*context, request->acting_for(), false, &who); !s.ok()) return s;
  return options_.tables->Start(who, request->table_id(), response);
}

grpc::Status MatchmakerService::RematchTable(grpc::ServerContext* context, const v1::RematchTableRequest* request,
                                             v1::FriendsTable* response) {
  services::CallLogContext call(*context);
  tables::Member who;
  if (grpc::Status s = TableCaller(*context, request->acting_for(), false, &who); !s.ok()) return s;
  return options_.tables->Rematch(who, request->table_id(), request->round(), response);
}

}  // namespace metropolis::matchmaker
