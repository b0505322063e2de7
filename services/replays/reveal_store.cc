#include "services/replays/reveal_store.h"

#include "lib/common/grpc_util.h"
#include "lib/common/negative_control.h"
#include "lib/storage/pg_status.h"
#include "services/replays/record.h"
#include "services/replays/summary_store.h"

namespace metropolis::replays {
namespace {

constexpr int kMaxIds = 500;

grpc::Status Invalid(std::string message) { return {grpc::StatusCode::INVALID_ARGUMENT, std::move(message)}; }

grpc::Status CheckIds(const google::protobuf::RepeatedPtrField<std::string>& ids, const char* field) {
  if (ids.size() > kMaxIds) return Invalid(std::string(field) + ": more than 500");
  for (int i = 0; i < ids.size(); ++i)
    if (!ValidGameId(ids[i]))
      return Invalid(std::string(field) + "[" + std::to_string(i) + "]: " + services::Quoted(ids[i]) +
                     " is not a game id");
  return grpc::Status::OK;
}

// Game ids are letters, digits, '-' and '_' (CheckIds): a text array needs no quoting.
std::string TextArray(const google::protobuf::RepeatedPtrField<std::string>& ids) {
  std::string out = "{";
  for (int i = 0; i < ids.size(); ++i) out += (i ? "," : "") + ids[i];
  return out + "}";
}

}  // namespace

std::vector<Reveal> LoadReveals(pqxx::transaction_base& tx, const std::set<std::string>& tournaments) {
  std::vector<Reveal> out;
  for (const std::string& t : tournaments) {
    if (t.empty()) continue;
    for (const auto& row : tx.exec_params("SELECT game_id FROM game_reveals WHERE tournament_id = $1", t))
      out.push_back({t, row[0].as<std::string>()});
  }
  return out;
}

bool Shown(const std::string& game_id, const std::string& tournament, const std::vector<Reveal>& reveals) {
  return Visible(game_id, tournament, reveals) || services::ProtectionRemoved("hidden_games");
}

grpc::Status RevealStore::Reveal(const v1::RevealGamesRequest& request) {
  if (request.tournament().empty() || request.tournament().size() > 64)
    return Invalid("tournament: 1 to 64 bytes required");
  if (!request.whole_tournament() && request.game_ids().empty())
    return Invalid("game_ids: empty, and whole_tournament is false: nothing to reveal");
  if (grpc::Status s = CheckIds(request.game_ids(), "game_ids"); !s.ok()) return s;
  return storage::RunPg(pool_, "reveal games", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (request.whole_tournament())
      tx.exec_params("INSERT INTO game_reveals (tournament_id, game_id) VALUES ($1, '') ON CONFLICT DO NOTHING",
                     request.tournament());
    if (!request.game_ids().empty())
      tx.exec_params(
          "INSERT INTO game_reveals (tournament_id, game_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING",
          request.tournament(), TextArray(request.game_ids()));
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status RevealStore::Results(const v1::GetResultsRequest& request, v1::GetResultsResponse* out) {
  if (request.game_ids().empty()) return Invalid("game_ids: at least one");
  if (grpc::Status s = CheckIds(request.game_ids(), "game_ids"); !s.ok()) return s;
  return storage::RunPg(pool_, "game results", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    const pqxx::result games = tx.exec_params(
        std::string("SELECT ") + kSummaryColumns + " FROM games g WHERE g.id = ANY($1::text[]) ORDER BY g.id",
        TextArray(request.game_ids()));
    for (const auto& r : games) SummaryFrom(r, out->add_games());
    AddSeats(tx, out->mutable_games(), /*outcome=*/true);
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::replays
