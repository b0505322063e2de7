#include "services/replays/pg_replay_store.h"

#include <functional>
#include <optional>
#include <pqxx/pqxx>

#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"
#include "services/replays/codec/codec.h"
#include "services/replays/pg_replay_rows.h"
#include "services/replays/record.h"

namespace metropolis::replays {
namespace {

std::string Vp(const v1::GameResult& r) {
  std::string out = "{";
  for (int i = 0; i < r.vp_size(); ++i) out += (i ? "," : "") + std::to_string(r.vp(i));
  return out + "}";
}

// Runs `fn` on a pooled connection, turning database failures into statuses:
// UNAVAILABLE when the server cannot be reached, INTERNAL otherwise.
grpc::Status Run(storage::PgPool* pool, const char* what, const std::function<grpc::Status(pqxx::connection&)>& fn) {
  return storage::RunPg(pool, what, [&](pqxx::connection& c) -> grpc::Status {
    try {
      return fn(c);
    } catch (const pqxx::foreign_key_violation&) {
      // The only references a stored game makes are to seats' identities.
      return {grpc::StatusCode::INVALID_ARGUMENT, std::string(what) + ": a seat's identity_id is not a known identity"};
    }
  });
}

}  // namespace

grpc::Status PgReplayStore::Digest(const std::string& game_id, std::string* digest, bool* found) {
  return Run(pool_, "confirm game", [&](pqxx::connection& c) -> grpc::Status {
    // One statement outside any transaction: no BEGIN and COMMIT round trips
    // on every rating's path. Only a game stored before games.digest goes on
    // to a write transaction, where its digest is computed and written in.
    {
      pqxx::nontransaction read(c);
      KeptDigest(read, game_id, found, digest);
    }
    if (*found && digest->empty()) {
      pqxx::work tx(c);
      *found = StoredDigest(tx, game_id, digest);
      tx.commit();
    }
    return grpc::Status::OK;
  });
}

grpc::Status PgReplayStore::Insert(const PreparedGame& prepared, bool* already_stored, std::string* stored_digest) {
  const v1::CompletedGameRecord& game = *prepared.record;
  return Run(pool_, "store game", [&](pqxx::connection& c) -> grpc::Status {
    // Prepared once per connection (defining them again is a no-op): storing
    // is the hot path, and parsing and planning were a good part of its cost.
    c.prepare("replays.insert_game",
              "INSERT INTO games (id, ladder_id, season, tournament_id, rules_version, config, chance_seed, "
              " num_seats, reason, winner, vp, actions, created_at, finished_at, finished_unix_ms, digest, "
              " verifiable_seed, chance_commitment, turns, resigned_seat) "
              "VALUES ($1, NULLIF($2::text, ''), NULLIF($3::int, 0), NULLIF($4::text, ''), $5, $6, $7, $8, $9, $10, "
              " $11::smallint[], $12, to_timestamp($13::bigint / 1000.0), to_timestamp($14::bigint / 1000.0), $14, "
              " $15, NULLIF($16::bytea, ''::bytea), NULLIF($17::bytea, ''::bytea), $18, NULLIF($19::smallint, -1)) "
              "ON CONFLICT (id) DO NOTHING RETURNING id");
    c.prepare("replays.insert_seat",
              "INSERT INTO game_seats (game_id, seat, identity_id, name, fallback_decisions, forfeited, kind) "
              "VALUES ($1, $2, NULLIF($3::bigint, 0), $4, $5, $6, NULLIF($7::smallint, 0))");
    c.prepare("replays.insert_replay",
              "INSERT INTO replays (game_id, rules_version, codes, compact, compact_format) "
              "VALUES ($1, $2, $3, $4, $5)");
    pqxx::work tx(c);
    const pqxx::result inserted = tx.exec_prepared(
        "replays.insert_game", game.game_id(), game.ladder(), int(game.season()), game.tournament(),
        game.config().rules_version(), pqxx::binarystring(prepared.config_bytes), int64_t(game.chance_seed()),
        prepared.num_seats, int(game.result().reason()),
        game.result().winner() >= 0 ? std::optional<int>(game.result().winner()) : std::nullopt, Vp(game.result()),
        game.actions_size(), game.created_unix_ms(), game.finished_unix_ms(), prepared.digest,
        pqxx::binarystring(game.verifiable_seed()), pqxx::binarystring(game.chance_commitment()),
        int64_t(prepared.turns), game.result().has_resigned_seat() ? int(game.result().resigned_seat()) : -1);
    if (inserted.empty()) {
      // Stored before: the same game is fine, another one under its id is not.
      const pqxx::row row = tx.exec_params1("SELECT codes FROM replays WHERE game_id = $1", game.game_id());
      if (pqxx::binarystring(row[0]).str() != prepared.codes) {
        return {grpc::StatusCode::ALREADY_EXISTS, "game " + game.game_id() + " is stored with other actions"};
      }
      // The digest of what was stored then, which the caller passes on.
      if (!StoredDigest(tx, game.game_id(), stored_digest))
        return {grpc::StatusCode::INTERNAL, "game " + game.game_id() + " has no replay row"};
      tx.commit();  // the digest of a game stored before games.digest, written in
      *already_stored = true;
      return grpc::Status::OK;
    }
    for (const v1::SeatRecord& seat : game.seats()) {
      tx.exec_prepared("replays.insert_seat", game.game_id(), int(seat.seat()), seat.identity_id(), seat.name(),
                       int(seat.fallback_decisions()), seat.forfeited(), int(seat.kind()));
    }
    for (const v1::SeatDebug& debug : game.debug()) {
      tx.exec_params("INSERT INTO game_debug (game_id, seat, debug) VALUES ($1, $2, $3)", game.game_id(),
                     int(debug.seat()), pqxx::binarystring(debug.SerializeAsString()));
    }
    if (prepared.has_compact) {
      tx.exec_prepared("replays.insert_replay", game.game_id(), game.config().rules_version(),
                       pqxx::binarystring(prepared.codes), pqxx::binarystring(prepared.compact), int(kFormatVersion));
    } else {  // the stable codes alone still replay
      tx.exec_params("INSERT INTO replays (game_id, rules_version, codes) VALUES ($1, $2, $3)", game.game_id(),
                     game.config().rules_version(), pqxx::binarystring(prepared.codes));
    }
    tx.commit();
    *already_stored = false;
    *stored_digest = prepared.digest;
    return grpc::Status::OK;
  });
}

grpc::Status PgReplayStore::Load(const std::string& game_id, v1::CompletedGameRecord* out) {
  return Run(pool_, "load game", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result games = tx.exec_params(
        "SELECT coalesce(ladder_id, ''), coalesce(season, 0), coalesce(tournament_id, ''), config, chance_seed, "
        " reason, coalesce(winner, -1), vp, actions, "
        " (extract(epoch FROM created_at) * 1000)::bigint, finished_unix_ms, "
        " coalesce(verifiable_seed, ''::bytea), coalesce(chance_commitment, ''::bytea), coalesce(turns, 0), "
        " coalesce(resigned_seat, -1) "
        "FROM games g WHERE id = $1",
        game_id);
    if (games.empty()) return {grpc::StatusCode::NOT_FOUND, "no stored game " + game_id};
    const pqxx::row g = games[0];
    out->set_game_id(game_id);
    out->set_tournament(g[2].as<std::string>());  // before anything can fail: whether it may be shown
    out->set_ladder(g[0].as<std::string>());
    out->set_season(g[1].as<uint32_t>());
    if (!out->mutable_config()->ParseFromString(pqxx::binarystring(g[3]).str()))
      return {grpc::StatusCode::DATA_LOSS, "game " + game_id + ": stored configuration does not parse"};
    out->set_chance_seed(uint64_t(g[4].as<int64_t>()));  // BIGINT holds the 64 bits signed
    out->mutable_result()->set_reason(v1::EndReason(g[5].as<int>()));
    out->mutable_result()->set_winner(g[6].as<int>());
    auto vp = g[7].as_array();
    for (auto e = vp.get_next(); e.first != pqxx::array_parser::done; e = vp.get_next())
      if (e.first == pqxx::array_parser::string_value) out->mutable_result()->add_vp(uint32_t(std::stoi(e.second)));
    out->mutable_result()->set_actions(g[8].as<uint32_t>());
    out->set_created_unix_ms(g[9].as<int64_t>());
    out->set_finished_unix_ms(g[10].as<int64_t>());
    out->set_verifiable_seed(pqxx::binarystring(g[11]).str());
    out->set_chance_commitment(pqxx::binarystring(g[12]).str());
    out->mutable_result()->set_turns(g[13].as<uint32_t>());
    if (const int resigned = g[14].as<int>(); resigned >= 0)
      out->mutable_result()->set_resigned_seat(uint32_t(resigned));
    for (const auto& row : tx.exec_params("SELECT seat, coalesce(identity_id, 0), name, fallback_decisions, forfeited, "
                                          " coalesce(kind, 0) FROM game_seats WHERE game_id = $1 "
                                          "ORDER BY seat",
                                          game_id)) {
      v1::SeatRecord* s = out->add_seats();
      s->set_seat(row[0].as<uint32_t>());
      s->set_identity_id(row[1].as<int64_t>());
      s->set_name(row[2].as<std::string>());
      s->set_fallback_decisions(row[3].as<uint32_t>());
      s->set_forfeited(row[4].as<bool>());
      s->set_kind(v1::SeatKind(row[5].as<int>()));
    }
    BytesToCodes(pqxx::binarystring(tx.exec_params1("SELECT codes FROM replays WHERE game_id = $1", game_id)[0]).str(),
                 out);
    return grpc::Status::OK;
  });
}

grpc::Status PgReplayStore::LoadDebug(const std::string& game_id, std::vector<v1::SeatDebug>* out) {
  return Run(pool_, "load debug", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    out->clear();
    for (const auto& row :
         tx.exec_params("SELECT seat, debug FROM game_debug WHERE game_id = $1 ORDER BY seat", game_id)) {
      if (!out->emplace_back().ParseFromString(pqxx::binarystring(row[1]).str()))
        return {grpc::StatusCode::DATA_LOSS,
                "game " + game_id + ": the stored debug of seat " + row[0].as<std::string>() + " does not parse"};
    }
    return grpc::Status::OK;
  });
}

grpc::Status PgReplayStore::ListPage(const ListFilter& filter, const ListCursor& after, int limit, Summaries* out) {
  return Run(pool_, "list games", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    // Newest first (or oldest first); the cursor is the last row's (finished time, id).
    const char* const order = filter.oldest_first
                                  ? " AND (NOT $7::boolean OR (g.finished_unix_ms, g.id) > ($8::bigint, $9::text)) "
                                    "ORDER BY g.finished_unix_ms, g.id LIMIT $10::int"
                                  : " AND (NOT $7::boolean OR (g.finished_unix_ms, g.id) < ($8::bigint, $9::text)) "
                                    "ORDER BY g.finished_unix_ms DESC, g.id DESC LIMIT $10::int";
    const pqxx::result rows = tx.exec_params(
        std::string("SELECT ") + kSummaryColumns +
            " FROM games g "
            "WHERE ($1::bigint = 0 OR EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.identity_id = "
            "$1)) "
            " AND ($2::text = '' OR g.ladder_id = $2) AND ($3::int = 0 OR g.season = $3) "
            " AND ($4::text = '' OR g.tournament_id = $4) "
            " AND ($5::bigint = 0 OR g.finished_unix_ms >= $5) AND ($6::bigint = 0 OR g.finished_unix_ms < $6) " +
            order,
        filter.identity_id, filter.ladder, int(filter.season), filter.tournament, filter.finished_after_unix_ms,
        filter.finished_before_unix_ms, after.set, after.finished_unix_ms, after.game_id, limit);
    Summaries page;
    for (const auto& r : rows) SummaryFrom(r, page.Add());
    AddSeats(tx, &page, SeatDetail::kPublic);
    for (v1::StoredGameSummary& g : page) *out->Add() = std::move(g);
    return grpc::Status::OK;
  });
}

grpc::Status PgReplayStore::Results(const std::vector<std::string>& ids, Summaries* out) {
  return storage::RunPg(pool_, "game results", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    const pqxx::result games = tx.exec_params(
        std::string("SELECT ") + kSummaryColumns + " FROM games g WHERE g.id = ANY($1::text[]) ORDER BY g.id",
        GameIdArray(ids));
    Summaries found;
    for (const auto& r : games) SummaryFrom(r, found.Add());
    AddSeats(tx, &found, SeatDetail::kWithOutcome);
    for (v1::StoredGameSummary& g : found) *out->Add() = std::move(g);
    return grpc::Status::OK;
  });
}

grpc::Status PgReplayStore::GamesWithoutTurns(const std::string& after, int limit, std::vector<std::string>* out) {
  return Run(pool_, "games without turns", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    for (const auto& row :
         tx.exec_params("SELECT id FROM games WHERE turns IS NULL AND id > $1 ORDER BY id LIMIT $2", after, limit))
      out->push_back(row[0].as<std::string>());
    return grpc::Status::OK;
  });
}

grpc::Status PgReplayStore::SetTurns(const std::string& game_id, uint32_t turns) {
  return Run(pool_, "set turns", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    tx.exec_params("UPDATE games SET turns = $2 WHERE id = $1 AND turns IS NULL", game_id, int64_t(turns));
    tx.commit();
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::replays
