#include "services/gateway/catalog.h"

#include <algorithm>

#include "services/gateway/backends.h"

namespace metropolis::gateway {
namespace {

LadderRow LadderFrom(const v1::Ladder& l) {
  LadderRow row;
  row.id = l.id();
  row.title = l.title();
  row.ruleset = l.ruleset();
  row.options = l.options();
  row.seats = l.seats();
  row.placement_games = l.placement_games();
  row.decision_ms = l.decision_ms();
  row.time_bank_ms = l.time_bank_ms();
  row.allow_three_after_ms = l.allow_three_after_ms();
  row.bot_fill_after_ms = l.bot_fill_after_ms();
  row.mu = l.mu();
  row.sigma = l.sigma();
  row.created_unix_ms = l.created_unix_ms();
  for (const v1::Season& s : l.seasons())
    row.seasons.push_back({int(s.season()), s.starts_unix_ms(), s.ends_unix_ms()});
  return row;
}

PlayerRow PlayerFrom(const v1::Identity& i) { return {i.id(), i.kind(), i.name(), i.owner(), i.created_unix_ms()}; }

grpc::Status ReadLadders(Backends* backends, const std::string& only, std::vector<LadderRow>* out) {
  v1::ReadLaddersRequest request;
  request.set_ladder(only);
  v1::ListLaddersResponse response;
  auto context = backends->AccountsContext();
  if (grpc::Status s = backends->accounts().ReadLadders(context.get(), request, &response); !s.ok()) return s;
  out->clear();
  for (const v1::Ladder& l : response.ladders()) out->push_back(LadderFrom(l));
  return grpc::Status::OK;
}

}  // namespace

int LadderRow::current_season() const {
  int open = 0;
  for (const SeasonRow& s : seasons)
    if (s.ends_unix_ms == 0) open = std::max(open, s.season);
  return open;
}

grpc::Status Catalog::Ladders(std::vector<LadderRow>* out) { return ReadLadders(backends_, "", out); }

grpc::Status Catalog::Ladder(const std::string& id, LadderRow* out) {
  std::vector<LadderRow> rows;
  if (grpc::Status s = ReadLadders(backends_, id, &rows); !s.ok()) return s;
  if (rows.empty()) return {grpc::StatusCode::NOT_FOUND, "ladder '" + id + "' does not exist"};
  *out = std::move(rows[0]);
  return grpc::Status::OK;
}

grpc::Status Catalog::Player(const std::string& name, PlayerRow* out) {
  v1::GetIdentityRequest request;
  request.set_name(name);
  v1::Identity response;
  auto context = backends_->AccountsContext();
  if (grpc::Status s = backends_->accounts().GetIdentity(context.get(), request, &response); !s.ok()) return s;
  *out = PlayerFrom(response);
  return grpc::Status::OK;
}

grpc::Status Catalog::SearchPlayers(const std::string& prefix, int limit, std::vector<PlayerRow>* out) {
  v1::SearchIdentitiesRequest request;
  request.set_prefix(prefix);
  request.set_limit(uint32_t(limit));
  v1::ListIdentitiesResponse response;
  auto context = backends_->AccountsContext();
  if (grpc::Status s = backends_->accounts().SearchIdentities(context.get(), request, &response); !s.ok()) return s;
  out->clear();
  for (const v1::Identity& i : response.identities()) out->push_back(PlayerFrom(i));
  return grpc::Status::OK;
}

}  // namespace metropolis::gateway
