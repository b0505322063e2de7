#include "services/ratings/store.h"

#include <algorithm>
#include <pqxx/pqxx>
#include <set>

#include "lib/storage/pg_status.h"

namespace metropolis::ratings {
namespace {

constexpr uint32_t kDefaultPage = 50, kMaxPage = 500;

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

grpc::Status NotFound(const std::string& message) { return {grpc::StatusCode::NOT_FOUND, message}; }

// Fills `out` with what rating_history holds for a game decided earlier.
void LoadDecision(pqxx::work& tx, const std::string& game_id, v1::RateGameResponse* out) {
  const pqxx::row decision =
      tx.exec_params1("SELECT rated, not_rated_reason, ladder_id, season FROM rated_games WHERE game_id = $1", game_id);
  out->set_already_rated(true);
  out->set_rated(decision[0].as<bool>());
  out->set_not_rated_reason(decision[1].as<std::string>());
  out->set_ladder(decision[2].as<std::string>());
  out->set_season(decision[3].as<uint32_t>());
  const pqxx::result rows = tx.exec_params(
      "SELECT s.seat, h.identity_id, h.rank, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after "
      "FROM rating_history h JOIN game_seats s ON s.game_id = h.game_id AND s.identity_id = h.identity_id "
      "WHERE h.game_id = $1 ORDER BY s.seat",
      game_id);
  for (const pqxx::row& row : rows) {
    v1::RatingChange* c = out->add_changes();
    c->set_seat(row[0].as<uint32_t>());
    c->set_identity_id(row[1].as<int64_t>());
    c->set_rank(row[2].as<uint32_t>());
    c->set_mu_before(row[3].as<double>());
    c->set_sigma_before(row[4].as<double>());
    c->set_mu_after(row[5].as<double>());
    c->set_sigma_after(row[6].as<double>());
  }
}

// Why a stored game is not rated, or empty when it is to be rated; fills `board`.
std::string WhyNotRated(pqxx::work& tx, const std::string& ladder, int season, Board* board) {
  if (ladder.empty()) return "not rated: the game belongs to no ladder";
  const pqxx::result l = Prepared(
      tx, "ratings.rate1", "SELECT mu, sigma, beta, kappa, tau, placement_games FROM ladders WHERE id = $1", ladder);
  if (l.empty()) return "not rated: ladder '" + ladder + "' is not registered";
  if (season == 0) return "not rated: the game has no season";
  if (Prepared(tx, "ratings.rate2", "SELECT 1 FROM seasons WHERE ladder_id = $1 AND season = $2", ladder, season)
          .empty())
    return "not rated: season " + std::to_string(season) + " of ladder '" + ladder + "' is not registered";
  board->ladder = ladder;
  board->season = season;
  board->params.mu = l[0][0].as<double>();
  board->params.sigma = l[0][1].as<double>();
  board->params.beta = l[0][2].as<double>();
  board->params.kappa = l[0][3].as<double>();
  board->params.tau = l[0][4].as<double>();
  board->placement_games = l[0][5].as<int>();
  return "";
}

}  // namespace

grpc::Status RatingStore::RateGame(const std::string& game_id, v1::RateGameResponse* out, Board* board,
                                   std::vector<StoredRating>* updated) {
  if (game_id.empty() || game_id.size() > 64)
    return {grpc::StatusCode::INVALID_ARGUMENT, "game_id: 1 to 64 characters"};
  return storage::RunPg(pool_, "rate game", [&](pqxx::connection& c) -> grpc::Status {
    out->Clear();
    updated->clear();
    pqxx::work tx(c);
    const pqxx::result game = Prepared(
        tx, "ratings.rate3",
        "SELECT coalesce(ladder_id, ''), coalesce(season, 0), coalesce(winner, -1), vp FROM games WHERE id = $1",
        game_id);
    if (game.empty()) {
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "game " + game_id + " is not stored: store it with Replays.StoreGame first"};
    }
    const std::string ladder = game[0][0].as<std::string>();
    const int season = game[0][1].as<int>();
    // Claiming the game first: a concurrent call for the same game waits here
    // on the key until this one commits, then finds it decided.
    const pqxx::result claimed =
        Prepared(tx, "ratings.rate4",
                 "INSERT INTO rated_games (game_id, ladder_id, season, rated) VALUES ($1, $2, $3, false) "
                 "ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                 game_id, ladder, season);
    if (claimed.empty()) {
      LoadDecision(tx, game_id, out);
      return grpc::Status::OK;
    }
    out->set_ladder(ladder);
    out->set_season(uint32_t(season));

    GameResultInput result;
    result.winner = game[0][2].as<int>();
    result.victory_points = storage::ParseIntArray(game[0][3].as<std::string>());
    std::vector<int64_t> identity(result.victory_points.size(), 0);
    result.forfeited.assign(result.victory_points.size(), false);
    for (const pqxx::row& seat :
         Prepared(tx, "ratings.rate5",
                  "SELECT seat, coalesce(identity_id, 0), forfeited FROM game_seats WHERE game_id = $1", game_id)) {
      const size_t s = seat[0].as<size_t>();
      if (s >= identity.size()) continue;
      identity[s] = seat[1].as<int64_t>();
      result.forfeited[s] = seat[2].as<bool>();
    }
    std::string why = WhyNotRated(tx, ladder, season, board);
    std::vector<int> ranks;
    std::set<int64_t> ids;
    if (why.empty()) {
      for (int64_t id : identity) {
        if (id != 0 && !ids.insert(id).second) why = "not rated: identity " + std::to_string(id) + " holds two seats";
      }
      if (ids.empty()) why = "not rated: no seat has an identity";
    }
    if (why.empty() && !RanksFromResult(result, &ranks, &why) && why.rfind("not rated", 0) != 0)
      why = "not rated: " + why;
    if (!why.empty()) {
      Prepared(tx, "ratings.rate6", "UPDATE rated_games SET not_rated_reason = $2 WHERE game_id = $1", game_id, why);
      tx.commit();
      out->set_not_rated_reason(why);
      return grpc::Status::OK;
    }

    // Newcomers get the ladder's initial rating; then every player's row is
    // locked in identity order (ids is sorted).
    const std::string id_array = storage::IntArray(ids);
    Prepared(tx, "ratings.rate7",
             "INSERT INTO ratings (ladder_id, season, identity_id, mu, sigma) "
             "SELECT $1, $2, unnest($3::bigint[]), $4, $5 ON CONFLICT DO NOTHING",
             ladder, season, id_array, board->params.mu, board->params.sigma);
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
    // Seats without an identity play as newcomers whose rating is not kept.
    std::vector<Rating> players;
    for (int64_t id : identity) {
      players.push_back(id ? Rating{before[id].mu, before[id].sigma} : InitialRating(board->params));
    }
    const std::vector<Rating> after = RatePlackettLuce(players, ranks, board->params);

    std::vector<int64_t> seat_ids;
    std::vector<int> seat_ranks;
    std::vector<double> mu_before, sigma_before, mu_after, sigma_after;
    for (size_t s = 0; s < identity.size(); ++s) {
      v1::RatingChange* change = out->add_changes();
      change->set_seat(uint32_t(s));
      change->set_identity_id(identity[s]);
      change->set_rank(uint32_t(ranks[s]));
      change->set_mu_before(players[s].mu);
      change->set_sigma_before(players[s].sigma);
      change->set_mu_after(after[s].mu);
      change->set_sigma_after(after[s].sigma);
      if (identity[s] == 0) continue;
      seat_ids.push_back(identity[s]);
      seat_ranks.push_back(ranks[s]);
      mu_before.push_back(players[s].mu);
      sigma_before.push_back(players[s].sigma);
      mu_after.push_back(after[s].mu);
      sigma_after.push_back(after[s].sigma);
      updated->push_back({identity[s], after[s].mu, after[s].sigma, before[identity[s]].games + 1});
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
    tx.commit();
    out->set_rated(true);
    return grpc::Status::OK;
  });
}

grpc::Status RatingStore::ResolveBoard(const std::string& ladder, uint32_t season, Board* out) {
  if (ladder.empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "ladder: required"};
  return storage::RunPg(pool_, "resolve board", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result l = tx.exec_params(
        "SELECT mu, sigma, beta, kappa, tau, placement_games, "
        " (SELECT max(season) FROM seasons WHERE ladder_id = $1), "
        " EXISTS (SELECT 1 FROM seasons WHERE ladder_id = $1 AND season = $2) "
        "FROM ladders WHERE id = $1",
        ladder, int64_t(season));
    if (l.empty()) return NotFound("ladder '" + ladder + "' does not exist");
    if (season == 0 && l[0][6].is_null()) return NotFound("ladder '" + ladder + "' has no season yet");
    if (season != 0 && !l[0][7].as<bool>())
      return NotFound("ladder '" + ladder + "' has no season " + std::to_string(season));
    out->ladder = ladder;
    out->season = season ? int(season) : l[0][6].as<int>();
    out->params.mu = l[0][0].as<double>();
    out->params.sigma = l[0][1].as<double>();
    out->params.beta = l[0][2].as<double>();
    out->params.kappa = l[0][3].as<double>();
    out->params.tau = l[0][4].as<double>();
    out->placement_games = l[0][5].as<int>();
    return grpc::Status::OK;
  });
}

grpc::Status RatingStore::Boards(std::vector<Board>* out) {
  std::vector<std::pair<std::string, int>> keys;
  grpc::Status s = storage::RunPg(pool_, "list boards", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    for (const pqxx::row& row : tx.exec("SELECT DISTINCT ladder_id, season FROM ratings ORDER BY 1, 2"))
      keys.emplace_back(row[0].as<std::string>(), row[1].as<int>());
    return grpc::Status::OK;
  });
  if (!s.ok()) return s;
  out->clear();
  for (const auto& [ladder, season] : keys) {
    Board board;
    if (s = ResolveBoard(ladder, uint32_t(season), &board); !s.ok()) return s;
    out->push_back(board);
  }
  return grpc::Status::OK;
}

grpc::Status RatingStore::ScanAll(const Board& board, int batch,
                                  const std::function<bool(const std::vector<StoredRating>&)>& fn) {
  return storage::RunPg(pool_, "scan ratings", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
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

grpc::Status RatingStore::Get(const Board& board, int64_t identity_id, StoredRating* out, bool* found) {
  return storage::RunPg(pool_, "get rating", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r =
        tx.exec_params("SELECT mu, sigma, games FROM ratings WHERE ladder_id = $1 AND season = $2 AND identity_id = $3",
                       board.ladder, board.season, identity_id);
    *found = !r.empty();
    if (*found) *out = {identity_id, r[0][0].as<double>(), r[0][1].as<double>(), r[0][2].as<int>()};
    return grpc::Status::OK;
  });
}

grpc::Status RatingStore::Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) {
  if (ids.empty()) return grpc::Status::OK;
  return storage::RunPg(pool_, "identity names", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    for (const pqxx::row& row :
         tx.exec_params("SELECT id, name FROM identities WHERE id = ANY($1::bigint[])", storage::IntArray(ids)))
      (*out)[row[0].as<int64_t>()] = row[1].as<std::string>();
    return grpc::Status::OK;
  });
}

grpc::Status RatingStore::History(const Board& board, int64_t identity_id, uint32_t limit,
                                  const std::string& page_token, v1::RatingHistory* out) {
  if (limit == 0) limit = kDefaultPage;
  if (limit > kMaxPage) return {grpc::StatusCode::INVALID_ARGUMENT, "limit: at most 500"};
  int64_t before = INT64_MAX;
  if (!page_token.empty()) {
    size_t used = 0;
    try {
      before = std::stoll(page_token, &used);
    } catch (...) {
      used = 0;
    }
    if (used != page_token.size() || before <= 0)
      return {grpc::StatusCode::INVALID_ARGUMENT, "page_token: not a token this service issued"};
  }
  return storage::RunPg(pool_, "rating history", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result rows = tx.exec_params(
        "SELECT h.id, h.game_id, h.rank, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after, "
        " (extract(epoch FROM h.at) * 1000)::bigint, g.num_seats "
        "FROM rating_history h JOIN games g ON g.id = h.game_id "
        "WHERE h.identity_id = $1 AND h.ladder_id = $2 AND h.season = $3 AND h.id < $4 "
        "ORDER BY h.id DESC LIMIT $5",
        identity_id, board.ladder, board.season, before, int(limit) + 1);
    for (size_t i = 0; i < rows.size() && i < limit; ++i) {
      const pqxx::row& row = rows[i];
      v1::RatingHistoryEntry* e = out->add_entries();
      e->set_game_id(row[1].as<std::string>());
      e->set_rank(row[2].as<uint32_t>());
      e->set_mu_before(row[3].as<double>());
      e->set_sigma_before(row[4].as<double>());
      e->set_mu_after(row[5].as<double>());
      e->set_sigma_after(row[6].as<double>());
      e->set_at_unix_ms(row[7].as<int64_t>());
      e->set_seats(row[8].as<uint32_t>());
      if (rows.size() > limit && i + 1 == limit) out->set_next_page_token(row[0].as<std::string>());
    }
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::ratings
