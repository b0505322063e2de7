#include "services/ratings/pg_rating_store.h"

#include <algorithm>
#include <optional>
#include <pqxx/pqxx>
#include <set>

#include "lib/storage/pg_pool.h"
#include "lib/storage/pg_status.h"
#include "services/ratings/model/model.h"
#include "services/ratings/rate.h"

namespace metropolis::ratings {
namespace {

// A read-only transaction whose statements all see one snapshot.
using Snapshot = pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::readwrite_policy::read_only>;

// Rating a game is the hot path: its statements are prepared once per
// connection (defining one again is a no-op) instead of parsed and planned
// each time.
template <typename... Args>
pqxx::result Prepared(pqxx::work& tx, const char* name, const char* sql, Args&&... args) {
  tx.conn().prepare(name, sql);
  return tx.exec_prepared(name, std::forward<Args>(args)...);
}
template <typename... Args>
pqxx::row Prepared1(pqxx::work& tx, const char* name, const char* sql, Args&&... args) {
  const pqxx::result r = Prepared(tx, name, sql, std::forward<Args>(args)...);
  if (r.size() != 1) throw pqxx::unexpected_rows(std::string(name) + ": expected one row");
  return r[0];
}

// A bigint[] as PostgreSQL prints it: "{1,0,3}".
std::vector<int64_t> ParseInt64Array(const std::string& text) {
  std::vector<int64_t> out;
  size_t i = text.find('{');
  if (i == std::string::npos) return out;
  ++i;
  while (i < text.size() && text[i] != '}') {
    size_t used = 0;
    out.push_back(std::stoll(text.substr(i), &used));
    i += used;
    if (i < text.size() && text[i] == ',') ++i;
  }
  return out;
}

// Fills `out` with what rated_games and rating_history hold for a game decided earlier.
void LoadDecisionIn(pqxx::transaction_base& tx, const std::string& game_id, v1::RateGameResponse* out) {
  const pqxx::row decision = tx.exec_params1(
      "SELECT rated, not_rated_reason, ladder_id, season, identities FROM rated_games WHERE game_id = $1", game_id);
  out->set_already_rated(true);
  out->set_rated(decision[0].as<bool>());
  out->set_not_rated_reason(decision[1].as<std::string>());
  out->set_ladder(decision[2].as<std::string>());
  out->set_season(decision[3].as<uint32_t>());
  const std::vector<int64_t> identities = ParseInt64Array(decision[4].as<std::string>());
  std::unordered_map<int64_t, pqxx::row> by_identity;
  const pqxx::result rows = tx.exec_params(
      "SELECT identity_id, rank, mu_before, sigma_before, mu_after, sigma_after FROM rating_history "
      "WHERE game_id = $1",
      game_id);
  for (const pqxx::row& row : rows) by_identity.emplace(row[0].as<int64_t>(), row);
  for (size_t seat = 0; seat < identities.size(); ++seat) {
    auto it = by_identity.find(identities[seat]);
    if (it == by_identity.end()) continue;  // a seat without an identity: not kept
    const pqxx::row& row = it->second;
    v1::RatingChange* c = out->add_changes();
    c->set_seat(uint32_t(seat));
    c->set_identity_id(row[0].as<int64_t>());
    c->set_rank(row[1].as<uint32_t>());
    c->set_mu_before(row[2].as<double>());
    c->set_sigma_before(row[3].as<double>());
    c->set_mu_after(row[4].as<double>());
    c->set_sigma_after(row[5].as<double>());
  }
}

grpc::Status Conflict(const std::string& game_id) {
  return {grpc::StatusCode::ALREADY_EXISTS,
          "game " + game_id + " was rated from a different result (another digest or other places); nothing changed"};
}

Decision ReadDecision(const pqxx::row& row) {
  Decision d;
  d.digest = row[0].as<std::string>();
  d.identities = ParseInt64Array(row[1].as<std::string>());
  if (!row[2].is_null()) d.places = storage::ParseIntArray(row[2].as<std::string>());
  return d;
}

constexpr const char* kDecisionSql = "SELECT digest, identities, places FROM rated_games WHERE game_id = $1";

}  // namespace

grpc::Status PgRatingStore::Decided(const std::string& game_id, Decision* out, bool* found) {
  return storage::RunPg(pool_, "read decision", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    c.prepare("ratings.decided", kDecisionSql);
    const pqxx::result r = tx.exec_prepared("ratings.decided", game_id);
    *found = !r.empty();
    if (*found) *out = ReadDecision(r[0]);
    return grpc::Status::OK;
  });
}

grpc::Status PgRatingStore::LoadDecision(const std::string& game_id, v1::RateGameResponse* out) {
  return storage::RunPg(pool_, "load decision", [&](pqxx::connection& c) -> grpc::Status {
    out->Clear();
    pqxx::read_transaction tx(c);
    LoadDecisionIn(tx, game_id, out);
    return grpc::Status::OK;
  });
}

grpc::Status PgRatingStore::RateGame(const ResultToRate& result, const Board& board, v1::RateGameResponse* out,
                                     std::vector<StoredRating>* updated, int64_t* board_version) {
  const std::string& game_id = result.game_id;
  const std::string& ladder = result.ladder;
  const int season = result.season;
  return storage::RunPg(pool_, "rate game", [&](pqxx::connection& c) -> grpc::Status {
    out->Clear();
    updated->clear();
    *board_version = 0;
    pqxx::work tx(c);
    // Claiming the game first: a concurrent call for the same game waits here
    // on the key until this one commits, then finds it decided.
    const pqxx::result claimed =
        Prepared(tx, "ratings.rate4",
                 "INSERT INTO rated_games (game_id, ladder_id, season, rated, digest, identities, places, num_seats, "
                 " not_rated_reason) "
                 "VALUES ($1, $2, $3, false, $4, $5::bigint[], $6::smallint[], $7, $8) "
                 "ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                 game_id, ladder, season, result.digest, storage::IntArray(result.identities),
                 result.places.empty() ? std::optional<std::string>()
                                       : std::optional<std::string>(storage::IntArray(result.places)),
                 int(result.identities.size()), result.why_not);
    if (claimed.empty()) {
      c.prepare("ratings.decided", kDecisionSql);
      if (!SameResult(ReadDecision(tx.exec_prepared("ratings.decided", game_id)[0]), result)) return Conflict(game_id);
      LoadDecisionIn(tx, game_id, out);
      return grpc::Status::OK;
    }
    out->set_ladder(ladder);
    out->set_season(uint32_t(season));
    if (!result.why_not.empty()) {
      tx.commit();
      out->set_not_rated_reason(result.why_not);
      return grpc::Status::OK;
    }
    std::set<int64_t> ids;
    for (int64_t id : result.identities)
      if (id != 0) ids.insert(id);

    // Newcomers get the ladder's initial rating; then every player's row is
    // locked in identity order (ids is sorted).
    const std::string id_array = storage::IntArray(ids);
    Prepared(tx, "ratings.rate7",
             "INSERT INTO ratings (ladder_id, season, identity_id, mu, sigma) "
             "SELECT $1, $2, unnest($3::bigint[]), $4, $5 ON CONFLICT DO NOTHING",
             ladder, season, id_array, board.params.mu, board.params.sigma);
    // One statement per player on the whole primary key: a young table's
    // statistics make the planner scan a board for "identity_id = ANY(...)".
    std::unordered_map<int64_t, StoredRating> before;
    for (int64_t id : ids) {
      const pqxx::row row = Prepared1(
          tx, "ratings.rate8",
          "SELECT mu, sigma, games FROM ratings WHERE ladder_id = $1 AND season = $2 AND identity_id = $3 FOR UPDATE",
          ladder, season, id);
      before[id] = {id, row[0].as<double>(), row[1].as<double>(), row[2].as<int>()};
    }
    RateSeats(result, board, before, out, updated);
    std::vector<int64_t> seat_ids;
    std::vector<int> seat_ranks;
    std::vector<double> mu_before, sigma_before, mu_after, sigma_after;
    for (const v1::RatingChange& change : out->changes()) {
      if (change.identity_id() == 0) continue;  // a seat without an identity: not kept
      seat_ids.push_back(change.identity_id());
      seat_ranks.push_back(int(change.rank()));
      mu_before.push_back(change.mu_before());
      sigma_before.push_back(change.sigma_before());
      mu_after.push_back(change.mu_after());
      sigma_after.push_back(change.sigma_after());
    }
    for (size_t i = 0; i < seat_ids.size(); ++i) {
      Prepared(tx, "ratings.rate9",
               "UPDATE ratings SET mu = $4, sigma = $5, games = games + 1, updated_at = now() "
               "WHERE ladder_id = $1 AND season = $2 AND identity_id = $3",
               ladder, season, seat_ids[i], mu_after[i], sigma_after[i]);
    }
    Prepared(tx, "ratings.rate10",
             "INSERT INTO rating_history (game_id, ladder_id, season, identity_id, rank, mu_before, sigma_before, "
             " mu_after, sigma_after) "
             "SELECT $1, $2, $3, unnest($4::bigint[]), unnest($5::smallint[]), unnest($6::float8[]), "
             " unnest($7::float8[]), unnest($8::float8[]), unnest($9::float8[])",
             game_id, ladder, season, storage::IntArray(seat_ids), storage::IntArray(seat_ranks),
             storage::DoubleArray(mu_before), storage::DoubleArray(sigma_before), storage::DoubleArray(mu_after),
             storage::DoubleArray(sigma_after));
    Prepared(tx, "ratings.rate11", "UPDATE rated_games SET rated = true WHERE game_id = $1", game_id);
    // Last, so that concurrent games on the board wait for each other only from
    // here to the commit: the version row serialises the board's writes.
    *board_version = Prepared1(tx, "ratings.rate12",
                               "INSERT INTO board_versions (ladder_id, season, version) VALUES ($1, $2, 1) "
                               "ON CONFLICT (ladder_id, season) DO UPDATE SET version = board_versions.version + 1 "
                               "RETURNING version",
                               ladder, season)[0]
                         .as<int64_t>();
    tx.commit();
    out->set_rated(true);
    return grpc::Status::OK;
  });
}

grpc::Status PgRatingStore::BoardKeys(std::vector<std::pair<std::string, int>>* out) {
  return storage::RunPg(pool_, "list boards", [&](pqxx::connection& c) -> grpc::Status {
    out->clear();
    pqxx::read_transaction tx(c);
    for (const pqxx::row& row : tx.exec("SELECT DISTINCT ladder_id, season FROM ratings ORDER BY 1, 2"))
      out->emplace_back(row[0].as<std::string>(), row[1].as<int>());
    return grpc::Status::OK;
  });
}

grpc::Status PgRatingStore::BoardVersion(const Board& board, int64_t* out) {
  return storage::RunPg(pool_, "read board version", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    c.prepare("ratings.version", "SELECT version FROM board_versions WHERE ladder_id = $1 AND season = $2");
    const pqxx::result r = tx.exec_prepared("ratings.version", board.ladder, board.season);
    *out = r.empty() ? 0 : r[0][0].as<int64_t>();
    return grpc::Status::OK;
  });
}

grpc::Status PgRatingStore::ScanAll(const Board& board, int batch, int64_t* version,
                                    const std::function<bool(const std::vector<StoredRating>&)>& fn) {
  return storage::RunPg(pool_, "scan ratings", [&](pqxx::connection& c) -> grpc::Status {
    // One snapshot for the version and the ratings: the board rebuilt from
    // them reflects exactly that version.
    Snapshot tx(c);
    const pqxx::result v = tx.exec_params("SELECT version FROM board_versions WHERE ladder_id = $1 AND season = $2",
                                          board.ladder, board.season);
    *version = v.empty() ? 0 : v[0][0].as<int64_t>();
    pqxx::icursorstream cursor(tx,
                               "SELECT identity_id, mu, sigma, games FROM ratings WHERE ladder_id = " +
                                   tx.quote(board.ladder) + " AND season = " + std::to_string(board.season),
                               "board_scan", batch);
    std::vector<StoredRating> out;
    pqxx::result rows;
    while (cursor >> rows) {
      if (rows.empty()) break;
      out.clear();
      for (const pqxx::row& row : rows)
        out.push_back({row[0].as<int64_t>(), row[1].as<double>(), row[2].as<double>(), row[3].as<int>()});
      if (!fn(out)) break;
    }
    return grpc::Status::OK;
  });
}

namespace {

// Redis's order of a board (ZREVRANGE): ordinal, then the member (the identity
// as text, byte by byte), both descending.
// Ordinal (model/model.h) in SQL, over the columns of `table` ("" for unqualified ones).
std::string OrdinalSql(const std::string& table = "") {
  const std::string t = table.empty() ? "" : table + ".";
  return "(" + t + "mu - " + std::to_string(kOrdinalZ) + " * " + t + "sigma)";
}
const std::string kRankedOrder = OrdinalSql() + " DESC, identity_id::text COLLATE \"C\" DESC";

uint64_t RankedCount(pqxx::transaction_base& tx, const Board& board) {
  return tx
      .exec_params1("SELECT count(*) FROM ratings WHERE ladder_id = $1 AND season = $2 AND games >= $3", board.ladder,
                    board.season, board.placement_games)[0]
      .as<uint64_t>();
}

// The ranked players ahead of `identity_id`; nullopt when it is not ranked.
std::optional<uint64_t> Ahead(pqxx::transaction_base& tx, const Board& board, int64_t identity_id) {
  const pqxx::row row = tx.exec_params1(
      "WITH me AS (SELECT " + OrdinalSql() +
          " AS o, identity_id::text COLLATE \"C\" AS t FROM ratings "
          " WHERE ladder_id = $1 AND season = $2 AND identity_id = $4 AND games >= $3) "
          "SELECT (SELECT count(*) FROM me), (SELECT count(*) FROM ratings r, me WHERE r.ladder_id = $1 "
          " AND r.season = $2 AND r.games >= $3 AND (" +
          OrdinalSql("r") +
          " > me.o "
          " OR (" +
          OrdinalSql("r") + " = me.o AND r.identity_id::text COLLATE \"C\" > me.t)))",
      board.ladder, board.season, board.placement_games, identity_id);
  if (row[0].as<int64_t>() == 0) return std::nullopt;
  return row[1].as<uint64_t>();
}

void PageIn(pqxx::transaction_base& tx, const Board& board, uint64_t offset, uint32_t limit,
            std::vector<RankedEntry>* out) {
  out->clear();
  const pqxx::result rows = tx.exec_params(
      std::string("SELECT identity_id, mu, sigma, games FROM ratings WHERE ladder_id = $1 AND season = $2 "
                  "AND games >= $3 ORDER BY ") +
          kRankedOrder + " OFFSET $4 LIMIT $5",
      board.ladder, board.season, board.placement_games, int64_t(offset), int64_t(limit));
  uint64_t rank = offset + 1;
  for (const pqxx::row& row : rows) {
    RankedEntry e;
    e.rank = rank++;
    e.identity_id = row[0].as<int64_t>();
    e.mu = row[1].as<double>();
    e.sigma = row[2].as<double>();
    e.games = row[3].as<int>();
    e.ordinal = Ordinal(e.mu, e.sigma);
    out->push_back(e);
  }
}

}  // namespace

grpc::Status PgRatingStore::Page(const Board& board, uint64_t offset, uint32_t limit, std::vector<RankedEntry>* out,
                                 uint64_t* total) {
  return storage::RunPg(pool_, "read board", [&](pqxx::connection& c) -> grpc::Status {
    Snapshot tx(c);
    *total = RankedCount(tx, board);
    PageIn(tx, board, offset, limit, out);
    return grpc::Status::OK;
  });
}

grpc::Status PgRatingStore::Around(const Board& board, int64_t identity_id, uint32_t limit,
                                   std::vector<RankedEntry>* out, uint64_t* total, bool* found) {
  return storage::RunPg(pool_, "read board", [&](pqxx::connection& c) -> grpc::Status {
    Snapshot tx(c);
    out->clear();
    *total = RankedCount(tx, board);
    const std::optional<uint64_t> ahead = Ahead(tx, board, identity_id);
    *found = ahead.has_value();
    if (!*found) return grpc::Status::OK;
    if (limit > 0) PageIn(tx, board, AroundStart(*ahead, limit, *total), limit, out);
    return grpc::Status::OK;
  });
}

grpc::Status PgRatingStore::Lookup(const Board& board, int64_t identity_id, RankedEntry* out, uint64_t* total,
                                   bool* found) {
  return storage::RunPg(pool_, "read board", [&](pqxx::connection& c) -> grpc::Status {
    Snapshot tx(c);
    const pqxx::result r =
        tx.exec_params("SELECT mu, sigma, games FROM ratings WHERE ladder_id = $1 AND season = $2 AND identity_id = $3",
                       board.ladder, board.season, identity_id);
    *found = !r.empty();
    if (!*found) return grpc::Status::OK;
    out->identity_id = identity_id;
    out->mu = r[0][0].as<double>();
    out->sigma = r[0][1].as<double>();
    out->games = r[0][2].as<int>();
    out->ordinal = Ordinal(out->mu, out->sigma);
    *total = RankedCount(tx, board);
    const std::optional<uint64_t> ahead = Ahead(tx, board, identity_id);
    out->rank = ahead ? *ahead + 1 : 0;
    return grpc::Status::OK;
  });
}

grpc::Status PgRatingStore::History(const Board& board, int64_t identity_id, const HistoryPage& page,
                                    v1::RatingHistory* out) {
  const uint32_t limit = page.limit;
  return storage::RunPg(pool_, "rating history", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result rows = tx.exec_params(
        "SELECT h.id, h.game_id, h.rank, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after, "
        " (extract(epoch FROM h.at) * 1000)::bigint, r.num_seats "
        "FROM rating_history h JOIN rated_games r ON r.game_id = h.game_id "
        "WHERE h.identity_id = $1 AND h.ladder_id = $2 AND h.season = $3 AND h.id < $4 "
        "ORDER BY h.id DESC LIMIT $5",
        identity_id, board.ladder, board.season, page.before_id, int(limit) + 1);
    for (size_t i = 0; i < rows.size() && i < limit; ++i) {
      const pqxx::row& row = rows[i];
      v1::RatingHistoryEntry* e = out->add_entries();
      e->set_game_id(row[1].as<std::string>());
      e->set_rank(row[2].as<uint32_t>());
      e->set_mu_before(row[3].as<double>());
      e->set_sigma_before(row[4].as<double>());
      e->set_mu_after(row[5].as<double>());
      e->set_sigma_after(row[6].as<double>());
      e->set_ordinal_after(Ordinal(e->mu_after(), e->sigma_after()));
      e->set_at_unix_ms(row[7].as<int64_t>());
      e->set_seats(row[8].as<uint32_t>());
      if (rows.size() > limit && i + 1 == limit) out->set_next_page_token(row[0].as<std::string>());
    }
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::ratings
