#include "services/replays/pg_reveal_store.h"

#include <pqxx/pqxx>

#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"
#include "services/replays/pg_replay_rows.h"

namespace metropolis::replays {

grpc::Status PgRevealStore::Add(const std::string& tournament, bool whole, const std::vector<std::string>& game_ids) {
  return storage::RunPg(pool_, "reveal games", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (whole)
      tx.exec_params("INSERT INTO game_reveals (tournament_id, game_id) VALUES ($1, '') ON CONFLICT DO NOTHING",
                     tournament);
    if (!game_ids.empty())
      tx.exec_params(
          "INSERT INTO game_reveals (tournament_id, game_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING",
          tournament, GameIdArray(game_ids));
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgRevealStore::Reveals(const std::set<std::string>& tournaments, std::vector<Reveal>* out) {
  return storage::RunPg(pool_, "read reveals", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    for (const std::string& t : tournaments) {
      if (t.empty()) continue;
      for (const auto& row : tx.exec_params("SELECT game_id FROM game_reveals WHERE tournament_id = $1", t))
        out->push_back({t, row[0].as<std::string>()});
    }
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::replays
