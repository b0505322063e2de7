#include "services/replays/digest_store.h"

#include "lib/storage/pg_status.h"

namespace metropolis::replays {

bool ReadStoredGame(pqxx::transaction_base& tx, const std::string& game_id, StoredGame* out) {
  tx.conn().prepare("replays.digest_game",
                    "SELECT coalesce(g.ladder_id, ''), coalesce(g.season, 0), coalesce(g.tournament_id, ''), "
                    " g.rules_version, g.config, g.chance_seed, g.num_seats, g.reason, coalesce(g.winner, -1), g.vp, "
                    " g.actions, g.finished_unix_ms, r.codes, coalesce(g.verifiable_seed, ''::bytea), "
                    " coalesce(g.chance_commitment, ''::bytea) "
                    "FROM games g JOIN replays r ON r.game_id = g.id WHERE g.id = $1");
  tx.conn().prepare("replays.digest_seats",
                    "SELECT seat, coalesce(identity_id, 0), name, fallback_decisions, forfeited "
                    "FROM game_seats WHERE game_id = $1 ORDER BY seat");
  const pqxx::result games = tx.exec_prepared("replays.digest_game", game_id);
  if (games.empty()) return false;
  const pqxx::row r = games[0];
  *out = {};
  out->game_id = game_id;
  out->ladder = r[0].as<std::string>();
  out->season = r[1].as<int>();
  out->tournament = r[2].as<std::string>();
  out->rules_version = r[3].as<int>();
  out->config = pqxx::binarystring(r[4]).str();
  out->chance_seed = r[5].as<int64_t>();
  out->num_seats = r[6].as<int>();
  out->reason = r[7].as<int>();
  out->winner = r[8].as<int>();
  out->vp = storage::ParseIntArray(r[9].as<std::string>());
  out->actions = r[10].as<int>();
  out->finished_unix_ms = r[11].as<int64_t>();
  out->codes = pqxx::binarystring(r[12]).str();
  out->verifiable_seed = pqxx::binarystring(r[13]).str();
  out->chance_commitment = pqxx::binarystring(r[14]).str();
  for (const pqxx::row& s : tx.exec_prepared("replays.digest_seats", game_id)) {
    out->seats.push_back({s[0].as<int>(), s[1].as<int64_t>(), s[2].as<std::string>(), s[3].as<int>(), s[4].as<bool>()});
  }
  return true;
}

void KeptDigest(pqxx::transaction_base& tx, const std::string& game_id, bool* found, std::string* out) {
  tx.conn().prepare("replays.game_digest", "SELECT digest FROM games WHERE id = $1");
  const pqxx::result r = tx.exec_prepared("replays.game_digest", game_id);
  *found = !r.empty();
  *out = *found && !r[0][0].is_null() ? r[0][0].as<std::string>() : std::string();
}

bool StoredDigest(pqxx::transaction_base& tx, const std::string& game_id, std::string* out) {
  bool found = false;
  KeptDigest(tx, game_id, &found, out);
  if (!found) return false;
  if (!out->empty()) return true;
  // Stored before the column: hashed from what the tables hold, and kept.
  // Concurrent callers compute the same digest; the first write wins.
  StoredGame stored;
  if (!ReadStoredGame(tx, game_id, &stored)) return false;
  *out = GameDigest(stored);
  tx.exec_params("UPDATE games SET digest = $2 WHERE id = $1 AND digest IS NULL", game_id, *out);
  return true;
}

}  // namespace metropolis::replays
