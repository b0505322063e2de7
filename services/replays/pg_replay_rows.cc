#include "services/replays/pg_replay_rows.h"

#include <map>

#include "lib/storage/pg_status.h"

namespace metropolis::replays {

bool ReadStoredGame(pqxx::transaction_base& tx, const std::string& game_id, StoredGame* out) {
  tx.conn().prepare("replays.digest_game",
                    "SELECT coalesce(g.ladder_id, ''), coalesce(g.season, 0), coalesce(g.tournament_id, ''), "
                    " g.rules_version, g.config, g.chance_seed, g.num_seats, g.reason, coalesce(g.winner, -1), g.vp, "
                    " g.actions, g.finished_unix_ms, r.codes, coalesce(g.verifiable_seed, ''::bytea), "
                    " coalesce(g.chance_commitment, ''::bytea), coalesce(g.resigned_seat, -1) "
                    "FROM games g JOIN replays r ON r.game_id = g.id WHERE g.id = $1");
  tx.conn().prepare("replays.digest_seats",
                    "SELECT seat, coalesce(identity_id, 0), name, fallback_decisions, forfeited, coalesce(kind, 0) "
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
  out->resigned_seat = r[15].as<int>();
  for (const pqxx::row& s : tx.exec_prepared("replays.digest_seats", game_id)) {
    out->seats.push_back(
        {s[0].as<int>(), s[1].as<int64_t>(), s[2].as<std::string>(), s[3].as<int>(), s[4].as<bool>(), s[5].as<int>()});
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

std::string GameIdArray(const std::vector<std::string>& ids) {
  std::string out = "{";
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + ids[i];
  return out + "}";
}

void SummaryFrom(const pqxx::row& r, v1::StoredGameSummary* s) {
  s->set_game_id(r[0].as<std::string>());
  s->set_ladder(r[1].as<std::string>());
  s->set_season(r[2].as<uint32_t>());
  s->set_tournament(r[3].as<std::string>());
  s->mutable_result()->set_reason(v1::EndReason(r[4].as<int>()));
  s->mutable_result()->set_winner(r[5].as<int>());
  s->mutable_result()->set_actions(r[6].as<uint32_t>());
  s->set_finished_unix_ms(r[7].as<int64_t>());
  auto vp = r[8].as_array();
  for (auto e = vp.get_next(); e.first != pqxx::array_parser::done; e = vp.get_next())
    if (e.first == pqxx::array_parser::string_value) s->mutable_result()->add_vp(uint32_t(std::stoi(e.second)));
  s->mutable_result()->set_turns(r[9].as<uint32_t>());
  if (const int resigned = r[10].as<int>(); resigned >= 0) s->mutable_result()->set_resigned_seat(uint32_t(resigned));
}

void AddSeats(pqxx::transaction_base& tx, google::protobuf::RepeatedPtrField<v1::StoredGameSummary>* games,
              SeatDetail detail) {
  if (games->empty()) return;
  // Stored game ids are letters, digits, '-' and '_' (ValidGameId): the array needs no quoting.
  std::string ids = "{";
  std::map<std::string, v1::StoredGameSummary*> by_id;
  for (v1::StoredGameSummary& g : *games) {
    ids += (by_id.empty() ? "" : ",") + g.game_id();
    by_id[g.game_id()] = &g;
  }
  ids += "}";
  const pqxx::result seats = tx.exec_params(
      "SELECT game_id, seat, coalesce(identity_id, 0), name, fallback_decisions, forfeited, coalesce(kind, 0) "
      "FROM game_seats WHERE game_id = ANY($1::text[]) ORDER BY game_id, seat",
      ids);
  for (const auto& seat : seats) {
    v1::SeatRecord* sr = by_id.at(seat[0].as<std::string>())->add_seats();
    sr->set_seat(seat[1].as<uint32_t>());
    sr->set_identity_id(seat[2].as<int64_t>());
    sr->set_name(seat[3].as<std::string>());
    sr->set_kind(v1::SeatKind(seat[6].as<int>()));  // who played it is shown with every list
    if (detail == SeatDetail::kWithOutcome) {
      sr->set_fallback_decisions(seat[4].as<uint32_t>());
      sr->set_forfeited(seat[5].as<bool>());
    }
  }
}

}  // namespace metropolis::replays
