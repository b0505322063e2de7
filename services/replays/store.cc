#include "services/replays/store.h"

#include <algorithm>
#include <pqxx/pqxx>

#include "lib/common/log.h"
#include "lib/storage/pg_status.h"
#include "services/replays/codec/codec.h"
#include "services/replays/digest.h"
#include "services/replays/digest_store.h"
#include "services/replays/record.h"
#include "services/replays/reveal_store.h"
#include "services/replays/summary_store.h"

namespace metropolis::replays {
namespace {

constexpr uint32_t kDefaultPage = 50, kMaxPage = 500;

std::string CodesToBytes(const v1::CompletedGameRecord& g) {
  std::string out;
  out.reserve(size_t(g.actions_size()) * 8);
  for (uint64_t code : g.actions())
    for (int shift = 56; shift >= 0; shift -= 8) out.push_back(char((code >> shift) & 0xFF));
  return out;
}

void BytesToCodes(const std::string& bytes, v1::CompletedGameRecord* g) {
  for (size_t i = 0; i + 8 <= bytes.size(); i += 8) {
    uint64_t code = 0;
    for (size_t j = 0; j < 8; ++j) code = (code << 8) | uint8_t(bytes[i + j]);
    g->add_actions(code);
  }
}

std::string Vp(const v1::GameResult& r) {
  std::string out = "{";
  for (int i = 0; i < r.vp_size(); ++i) out += (i ? "," : "") + std::to_string(r.vp(i));
  return out + "}";
}

// The page token: the last row's finished time and id, which the next page
// starts strictly after (newest first).
std::string PageToken(int64_t finished_ms, const std::string& id) { return std::to_string(finished_ms) + "/" + id; }
bool ParsePageToken(const std::string& token, int64_t* ms, std::string* id) {
  const size_t slash = token.find('/');
  if (slash == std::string::npos || slash == 0) return false;
  try {
    size_t used = 0;
    *ms = std::stoll(token.substr(0, slash), &used);
    if (used != slash) return false;
  } catch (...) {
    return false;
  }
  *id = token.substr(slash + 1);
  return ValidGameId(*id);
}

// The digest of a record as Store writes it (the columns' values, not the
// request's: no ladder is '' either way, no winner -1).
std::string DigestOfRecord(const v1::CompletedGameRecord& game, int num_seats, const std::string& config_bytes,
                           const std::string& codes) {
  StoredGame g;
  g.game_id = game.game_id();
  g.ladder = game.ladder();
  g.season = int(game.season());
  g.tournament = game.tournament();
  g.rules_version = int(game.config().rules_version());
  g.config = config_bytes;
  g.chance_seed = int64_t(game.chance_seed());
  g.num_seats = num_seats;
  g.reason = int(game.result().reason());
  g.winner = game.result().winner() >= 0 ? game.result().winner() : -1;
  for (uint32_t v : game.result().vp()) g.vp.push_back(int(v));
  g.actions = game.actions_size();
  g.finished_unix_ms = game.finished_unix_ms();
  g.verifiable_seed = game.verifiable_seed();
  g.chance_commitment = game.chance_commitment();
  for (const v1::SeatRecord& seat : game.seats()) {
    g.seats.push_back(
        {int(seat.seat()), seat.identity_id(), seat.name(), int(seat.fallback_decisions()), seat.forfeited()});
  }
  std::sort(g.seats.begin(), g.seats.end(), [](const auto& a, const auto& b) { return a.seat < b.seat; });
  g.codes = codes;
  return GameDigest(g);
}

}  // namespace

grpc::Status ReplayStore::Confirm(const std::string& game_id, const std::string& digest, bool* confirmed) {
  if (!ValidGameId(game_id)) return {grpc::StatusCode::INVALID_ARGUMENT, "game_id: '" + game_id + "' is not a game id"};
  if (!ValidDigest(digest)) return {grpc::StatusCode::INVALID_ARGUMENT, "digest: not 64 lower-case hex digits"};
  return Run("confirm game", [&](pqxx::connection& c) -> grpc::Status {
    // One statement outside any transaction: no BEGIN and COMMIT round trips
    // on every rating's path. Only a game stored before games.digest goes on
    // to a write transaction, where its digest is computed and written in.
    bool found = false;
    std::string stored;
    {
      pqxx::nontransaction read(c);
      KeptDigest(read, game_id, &found, &stored);
    }
    if (found && stored.empty()) {
      pqxx::work tx(c);
      found = StoredDigest(tx, game_id, &stored);
      tx.commit();
    }
    if (!found) return {grpc::StatusCode::NOT_FOUND, "no stored game " + game_id};
    *confirmed = stored == digest;
    return grpc::Status::OK;
  });
}

grpc::Status ReplayStore::Run(const char* what, const std::function<grpc::Status(pqxx::connection&)>& fn) {
  return storage::RunPg(pool_, what, [&](pqxx::connection& c) -> grpc::Status {
    try {
      return fn(c);
    } catch (const pqxx::foreign_key_violation&) {
      // The only references a stored game makes are to seats' identities.
      return {grpc::StatusCode::INVALID_ARGUMENT, std::string(what) + ": a seat's identity_id is not a known identity"};
    }
  });
}

grpc::Status ReplayStore::Store(const v1::CompletedGameRecord& game, v1::StoreGameResponse* out) {
  GameConfig config;
  std::vector<Action> actions;
  if (grpc::Status s = CheckShape(game, &config, &actions); !s.ok()) return s;
  // Encoding is a checked replay; only when it fails does the plain replay run,
  // for its precise error, or to store a game the codec cannot compress.
  std::string compact, error;
  State final_state;
  const bool have_compact = EncodeActions(config, actions, &compact, &error, nullptr, &final_state);
  if (grpc::Status s = have_compact ? CheckResult(game, final_state) : CheckRecord(game, &config, &actions); !s.ok())
    return s;
  if (grpc::Status s = CheckVerifiableChance(game, config, actions); !s.ok()) return s;
  const std::string codes = CodesToBytes(game);
  std::string config_bytes;
  game.config().SerializeToString(&config_bytes);
  // Kept in games.digest, in the game's transaction: ConfirmGame reads it back
  // instead of hashing the stored game again.
  const std::string digest = DigestOfRecord(game, config.num_seats, config_bytes, codes);
  return Run("store game", [&](pqxx::connection& c) -> grpc::Status {
    // Prepared once per connection (defining them again is a no-op): storing
    // is the hot path, and parsing and planning were a good part of its cost.
    c.prepare("replays.insert_game",
              "INSERT INTO games (id, ladder_id, season, tournament_id, rules_version, config, chance_seed, "
              " num_seats, reason, winner, vp, actions, created_at, finished_at, finished_unix_ms, digest, "
              " verifiable_seed, chance_commitment) "
              "VALUES ($1, NULLIF($2::text, ''), NULLIF($3::int, 0), NULLIF($4::text, ''), $5, $6, $7, $8, $9, $10, "
              " $11::smallint[], $12, to_timestamp($13::bigint / 1000.0), to_timestamp($14::bigint / 1000.0), $14, "
              " $15, NULLIF($16::bytea, ''::bytea), NULLIF($17::bytea, ''::bytea)) "
              "ON CONFLICT (id) DO NOTHING RETURNING id");
    c.prepare("replays.insert_seat",
              "INSERT INTO game_seats (game_id, seat, identity_id, name, fallback_decisions, forfeited) "
              "VALUES ($1, $2, NULLIF($3::bigint, 0), $4, $5, $6)");
    c.prepare("replays.insert_replay",
              "INSERT INTO replays (game_id, rules_version, codes, compact, compact_format) "
              "VALUES ($1, $2, $3, $4, $5)");
    pqxx::work tx(c);
    const pqxx::result inserted = tx.exec_prepared(
        "replays.insert_game", game.game_id(), game.ladder(), int(game.season()), game.tournament(),
        game.config().rules_version(), pqxx::binarystring(config_bytes), int64_t(game.chance_seed()), config.num_seats,
        int(game.result().reason()),
        game.result().winner() >= 0 ? std::optional<int>(game.result().winner()) : std::nullopt, Vp(game.result()),
        game.actions_size(), game.created_unix_ms(), game.finished_unix_ms(), digest,
        pqxx::binarystring(game.verifiable_seed()), pqxx::binarystring(game.chance_commitment()));
    if (inserted.empty()) {
      // Stored before: the same game is fine, another one under its id is not.
      const pqxx::row row = tx.exec_params1("SELECT codes FROM replays WHERE game_id = $1", game.game_id());
      if (pqxx::binarystring(row[0]).str() != codes) {
        return {grpc::StatusCode::ALREADY_EXISTS, "game " + game.game_id() + " is stored with other actions"};
      }
      // The digest of what was stored then, which the caller passes on.
      std::string stored;
      if (!StoredDigest(tx, game.game_id(), &stored))
        return {grpc::StatusCode::INTERNAL, "game " + game.game_id() + " has no replay row"};
      tx.commit();  // the digest of a game stored before games.digest, written in
      out->set_digest(stored);
      out->set_already_stored(true);
      return grpc::Status::OK;
    }
    for (const v1::SeatRecord& seat : game.seats()) {
      tx.exec_prepared("replays.insert_seat", game.game_id(), int(seat.seat()), seat.identity_id(), seat.name(),
                       int(seat.fallback_decisions()), seat.forfeited());
    }
    if (have_compact) {
      tx.exec_prepared("replays.insert_replay", game.game_id(), game.config().rules_version(),
                       pqxx::binarystring(codes), pqxx::binarystring(compact), int(kFormatVersion));
    } else {  // the stable codes alone still replay
      services::LogWarning("no compact form", {{"game", game.game_id()}, {"error", error}});
      tx.exec_params("INSERT INTO replays (game_id, rules_version, codes) VALUES ($1, $2, $3)", game.game_id(),
                     game.config().rules_version(), pqxx::binarystring(codes));
    }
    tx.commit();
    out->set_compact_bytes(uint32_t(compact.size()));
    out->set_digest(digest);
    return grpc::Status::OK;
  });
}

grpc::Status ReplayStore::Load(const std::string& game_id, v1::CompletedGameRecord* out) {
  if (!ValidGameId(game_id)) return {grpc::StatusCode::INVALID_ARGUMENT, "game_id: '" + game_id + "' is not a game id"};
  return Run("load game", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result games = tx.exec_params(
        "SELECT coalesce(ladder_id, ''), coalesce(season, 0), coalesce(tournament_id, ''), config, chance_seed, "
        " reason, coalesce(winner, -1), vp, actions, "
        " (extract(epoch FROM created_at) * 1000)::bigint, finished_unix_ms, "
        " coalesce(verifiable_seed, ''::bytea), coalesce(chance_commitment, ''::bytea) FROM games g WHERE id = $1",
        game_id);
    if (games.empty()) return {grpc::StatusCode::NOT_FOUND, "no stored game " + game_id};
    const std::string tournament = games[0][2].as<std::string>();
    if (!Shown(game_id, tournament, LoadReveals(tx, {tournament})))
      return {grpc::StatusCode::FAILED_PRECONDITION, HiddenMessage(game_id)};
    const pqxx::row g = games[0];
    out->set_game_id(game_id);
    out->set_ladder(g[0].as<std::string>());
    out->set_season(g[1].as<uint32_t>());
    out->set_tournament(g[2].as<std::string>());
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
    out->set_verifiable_seed(pqxx::binarystring(g[11]).str());  // revealed: the game is shown, so it is over
    out->set_chance_commitment(pqxx::binarystring(g[12]).str());
    for (const auto& row : tx.exec_params("SELECT seat, coalesce(identity_id, 0), name, fallback_decisions, forfeited "
                                          "FROM game_seats WHERE game_id = $1 "
                                          "ORDER BY seat",
                                          game_id)) {
      v1::SeatRecord* s = out->add_seats();
      s->set_seat(row[0].as<uint32_t>());
      s->set_identity_id(row[1].as<int64_t>());
      s->set_name(row[2].as<std::string>());
      s->set_fallback_decisions(row[3].as<uint32_t>());
      s->set_forfeited(row[4].as<bool>());
    }
    BytesToCodes(pqxx::binarystring(tx.exec_params1("SELECT codes FROM replays WHERE game_id = $1", game_id)[0]).str(),
                 out);
    return grpc::Status::OK;
  });
}

grpc::Status ReplayStore::List(const v1::ListStoredGamesRequest& request, v1::ListStoredGamesResponse* out) {
  if (request.page_size() > kMaxPage) return {grpc::StatusCode::INVALID_ARGUMENT, "page_size: at most 500"};
  const uint32_t page = request.page_size() ? request.page_size() : kDefaultPage;
  int64_t after_ms = 0;
  std::string after_id;
  const bool paged = !request.page_token().empty();
  if (paged && !ParsePageToken(request.page_token(), &after_ms, &after_id))
    return {grpc::StatusCode::INVALID_ARGUMENT, "page_token: not a token this service gave"};
  return Run("list games", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    // Newest first; the page token is the last row's (finished time, id).
    // Hidden games (visibility.h) are dropped after the query, so a page is
    // read in batches until it is full or the games run out.
    std::vector<pqxx::row> shown;
    int64_t cursor_ms = after_ms;
    std::string cursor_id = after_id;
    bool cursor = paged;
    const int batch = int(page) + 1;
    while (shown.size() <= page) {
      const pqxx::result rows = tx.exec_params(
          std::string("SELECT ") + kSummaryColumns +
              " FROM games g "
              "WHERE ($1::bigint = 0 OR EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.identity_id = "
              "$1)) "
              " AND ($2::text = '' OR g.ladder_id = $2) AND ($3::int = 0 OR g.season = $3) "
              " AND ($4::text = '' OR g.tournament_id = $4) "
              " AND ($5::bigint = 0 OR g.finished_unix_ms >= $5) AND ($6::bigint = 0 OR g.finished_unix_ms < $6) "
              " AND (NOT $7::boolean OR (g.finished_unix_ms, g.id) < ($8::bigint, $9::text)) "
              "ORDER BY g.finished_unix_ms DESC, g.id DESC LIMIT $10::int",
          request.identity_id(), request.ladder(), int(request.season()), request.tournament(),
          request.finished_after_unix_ms(), request.finished_before_unix_ms(), cursor, cursor_ms, cursor_id, batch);
      std::set<std::string> tournaments;
      for (const auto& r : rows) tournaments.insert(r[kSummaryTournament].as<std::string>());
      const std::vector<Reveal> reveals = LoadReveals(tx, tournaments);
      for (const auto& r : rows)
        if (shown.size() <= page && Shown(r[0].as<std::string>(), r[kSummaryTournament].as<std::string>(), reveals))
          shown.push_back(r);
      if (rows.size() < size_t(batch)) break;
      cursor = true;
      cursor_ms = rows[rows.size() - 1][kSummaryFinished].as<int64_t>();
      cursor_id = rows[rows.size() - 1][0].as<std::string>();
    }
    for (size_t i = 0; i < shown.size() && i < page; ++i) SummaryFrom(shown[i], out->add_games());
    AddSeats(tx, out->mutable_games(), /*outcome=*/false);
    if (shown.size() > page) {
      const v1::StoredGameSummary& last = out->games(int(page) - 1);
      out->set_next_page_token(PageToken(last.finished_unix_ms(), last.game_id()));
    }
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::replays
