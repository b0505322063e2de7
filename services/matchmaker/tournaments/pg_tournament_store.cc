#include "services/matchmaker/tournaments/pg_tournament_store.h"

#include <pqxx/pqxx>

#include "lib/common/negative_control.h"
#include "lib/storage/pg_status.h"

namespace metropolis::matchmaker {
namespace {

using storage::IntArray;
using storage::ParseIntArray;
using storage::RunPg;

const char* kTournamentColumns =
    "t.id, t.title, t.format, t.ruleset, t.options, t.seats, t.rounds, t.seed, t.max_games_per_entrant, "
    "t.decision_ms, t.time_bank_ms, t.state, (extract(epoch FROM t.created_at) * 1000)::bigint, "
    "coalesce((extract(epoch FROM t.finished_at) * 1000)::bigint, 0), "
    "(SELECT array_agg(e.identity_id ORDER BY e.entrant) FROM tournament_entrants e WHERE e.tournament_id = t.id), "
    "(extract(epoch FROM t.starts_at) * 1000)::bigint, t.max_entrants, t.repeat_every_ms, t.series, t.occurrence, "
    "t.reason, t.arena_ms, t.sequential_stop";

// Names come as a PostgreSQL text array; array_parser unquotes them.
std::vector<std::string> ParseTextArray(const pqxx::field& field) {
  std::vector<std::string> out;
  if (field.is_null()) return out;
  auto parser = field.as_array();
  for (auto e = parser.get_next(); e.first != pqxx::array_parser::done; e = parser.get_next())
    if (e.first == pqxx::array_parser::string_value) out.push_back(e.second);
  return out;
}

TournamentRow ReadTournament(const pqxx::row& r) {
  TournamentRow t;
  t.spec.id = r[0].as<std::string>();
  t.spec.title = r[1].as<std::string>();
  ParseTournamentFormat(r[2].as<std::string>(), &t.spec.format);
  t.spec.ruleset = r[3].as<std::string>();
  t.spec.options = r[4].as<std::string>();
  t.spec.seats = r[5].as<int>();
  t.spec.rounds = r[6].as<int>();
  t.spec.seed = uint64_t(r[7].as<int64_t>());
  t.spec.max_games_per_entrant = r[8].as<int>();
  t.spec.decision_ms = uint32_t(r[9].as<int64_t>());
  t.spec.time_bank_ms = uint32_t(r[10].as<int64_t>());
  t.state = r[11].as<std::string>();
  t.created_ms = r[12].as<int64_t>();
  t.finished_ms = r[13].as<int64_t>();
  // Identity ids fit an int only while there are fewer than 2^31 accounts;
  // read them as text to stay exact.
  for (const std::string& id : ParseTextArray(r[14])) t.spec.entrants.push_back(std::stoll(id));
  t.spec.starts_ms = r[15].as<int64_t>();
  t.spec.max_entrants = r[16].as<int>();
  t.spec.repeat_every_ms = r[17].as<int64_t>();
  t.spec.series = r[18].as<std::string>();
  t.spec.occurrence = r[19].as<int>();
  t.reason = r[20].as<std::string>();
  t.spec.arena_ms = r[21].as<int64_t>();
  t.spec.sequential_stop = r[22].as<bool>();
  return t;
}

}  // namespace

namespace {

// Raises the database's fence to `fence` inside `tx` (its row lock orders the
// scheduler's changes); FAILED_PRECONDITION, with `fence` cleared, when a newer
// leader's fence is higher, or when the change is the scheduler's (`required`)
// and there is no fence: a fenced-off scheduler changes nothing until it takes a
// new one.
grpc::Status Fenced(pqxx::work& tx, std::atomic<int64_t>* fence, bool check, bool required = true) {
  const int64_t mine = fence->load();
  if (!check) return grpc::Status::OK;
  if (mine == 0) {
    if (!required) return grpc::Status::OK;
    return {grpc::StatusCode::FAILED_PRECONDITION,
            "the tournament scheduler holds no fence (it takes one as it leads)"};
  }
  if (!tx.exec_params("UPDATE tournament_leader SET fence = $1 WHERE fence <= $1", mine).affected_rows()) {
    fence->store(0);
    return {grpc::StatusCode::FAILED_PRECONDITION,
            "fenced off: a newer tournament scheduler leads (this one's fence " + std::to_string(mine) + ")"};
  }
  return grpc::Status::OK;
}

}  // namespace

PgTournamentStore::PgTournamentStore(storage::PgPool* pool)
    : pool_(pool),
      check_fence_(!services::ProtectionRemoved("tournament_fence")),
      check_attempt_(!services::ProtectionRemoved("current_attempt")),
      check_entrants_(!services::ProtectionRemoved("start_entrants")) {}

grpc::Status PgTournamentStore::TakeFence(int64_t* fence) {
  return RunPg(pool_, "take the scheduler's fence", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    *fence = tx.exec1("UPDATE tournament_leader SET fence = fence + 1 RETURNING fence")[0].as<int64_t>();
    tx.commit();
    fence_.store(*fence);
    return grpc::Status::OK;
  });
}

namespace {

// Inserts the tournament and its entrants, "registering" when it has a start;
// false when the id is taken.
bool InsertTournament(pqxx::work& tx, const TournamentSpec& spec) {
  const pqxx::result inserted = tx.exec_params(
      "INSERT INTO tournaments (id, title, format, ruleset, options, seats, rounds, seed, max_games_per_entrant, "
      "decision_ms, time_bank_ms, state, starts_at, max_entrants, repeat_every_ms, series, occurrence, arena_ms, "
      "sequential_stop) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
      "CASE WHEN $13::bigint > 0 THEN to_timestamp($13::bigint / 1000.0) ELSE now() END, $14, $15, $16, $17, $18, $19) "
      "ON CONFLICT (id) DO NOTHING RETURNING id",
      spec.id, spec.title, TournamentFormatName(spec.format), spec.ruleset, spec.options, spec.seats, spec.rounds,
      int64_t(spec.seed), spec.max_games_per_entrant, int64_t(spec.decision_ms), int64_t(spec.time_bank_ms),
      spec.registration() ? "registering" : "running", spec.starts_ms, spec.max_entrants, spec.repeat_every_ms,
      spec.series, spec.occurrence, spec.arena_ms, spec.sequential_stop);
  if (inserted.empty()) return false;
  for (size_t i = 0; i < spec.entrants.size(); ++i)
    tx.exec_params("INSERT INTO tournament_entrants (tournament_id, entrant, identity_id) VALUES ($1, $2, $3)", spec.id,
                   int(i), spec.entrants[i]);
  return true;
}

void InsertGames(pqxx::work& tx, const std::string& id, int first, const std::vector<ScheduledGame>& games) {
  int number = first;
  for (const ScheduledGame& g : games)
    tx.exec_params(
        "INSERT INTO tournament_games (tournament_id, number, round, set_no, rotation, entrants, chance_seed, "
        "board_seed) VALUES ($1, $2, $3, $4, $5, $6::smallint[], $7, $8)",
        id, number++, g.round, g.set, g.rotation, IntArray(g.entrants), int64_t(g.chance_seed), int64_t(g.board_seed));
}

// The tournament's state under its row lock, which orders registration
// against the start; empty when there is no such tournament. A registering
// tournament whose start has passed (on the database's clock) is "starting":
// it takes no entry while the scheduler makes its schedule.
std::string LockedState(pqxx::work& tx, const std::string& id) {
  const pqxx::result r = tx.exec_params(
      "SELECT CASE WHEN state = 'registering' AND starts_at <= now() THEN 'starting' ELSE state END "
      "FROM tournaments WHERE id = $1 FOR UPDATE",
      id);
  return r.empty() ? std::string() : r[0][0].as<std::string>();
}

}  // namespace

grpc::Status PgTournamentStore::Create(const TournamentSpec& spec, const std::vector<ScheduledGame>& games) {
  return RunPg(pool_, "create tournament", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (!InsertTournament(tx, spec))
      return grpc::Status(grpc::StatusCode::ALREADY_EXISTS, "tournament " + spec.id + " exists already");
    InsertGames(tx, spec.id, 0, games);
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::Join(const std::string& id, int64_t identity, bool* joined) {
  *joined = false;
  return RunPg(pool_, "join tournament", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    const std::string state = LockedState(tx, id);
    if (state.empty()) return grpc::Status(grpc::StatusCode::NOT_FOUND, "no tournament " + id);
    const pqxx::row r = tx.exec_params1(
        "SELECT count(*), count(*) FILTER (WHERE identity_id = $2), "
        "(SELECT max_entrants FROM tournaments WHERE id = $1) FROM tournament_entrants WHERE tournament_id = $1",
        id, identity);
    if (r[1].as<int64_t>() > 0) return grpc::Status::OK;
    if (state != "registering")
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          "tournament " + id + " is " + state + ": registration closed at its start");
    if (r[0].as<int64_t>() >= r[2].as<int64_t>())
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          "tournament " + id + " is full (" + r[2].as<std::string>() + " entrants)");
    tx.exec_params("INSERT INTO tournament_entrants (tournament_id, entrant, identity_id) VALUES ($1, $2, $3)", id,
                   r[0].as<int>(), identity);
    tx.commit();
    *joined = true;
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::Leave(const std::string& id, int64_t identity) {
  return RunPg(pool_, "leave tournament", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    const std::string state = LockedState(tx, id);
    if (state.empty()) return grpc::Status(grpc::StatusCode::NOT_FOUND, "no tournament " + id);
    if (state != "registering")
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          "tournament " + id + " is " + state + ": registration closed at its start");
    const pqxx::result gone = tx.exec_params(
        "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND identity_id = $2 RETURNING entrant", id,
        identity);
    if (gone.empty())
      return grpc::Status(grpc::StatusCode::NOT_FOUND,
                          "identity " + std::to_string(identity) + " is not entered in tournament " + id);
    // The later entrants move up one, in two steps through numbers no entrant
    // has (at most 1,000 entrants), so that the primary key never sees two
    // rows with one number.
    const int left = gone[0][0].as<int>();
    tx.exec_params("UPDATE tournament_entrants SET entrant = entrant + 10000 WHERE tournament_id = $1 AND entrant > $2",
                   id, left);
    tx.exec_params(
        "UPDATE tournament_entrants SET entrant = entrant - 10001 WHERE tournament_id = $1 AND entrant >= 10000", id);
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::DueToStart(std::vector<std::string>* ids, int64_t* now_ms) {
  return RunPg(pool_, "tournaments due to start", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    ids->clear();
    // floor, not a cast that rounds: a clock read half a millisecond before
    // the start must not say the start has come while `starts_at <= now()`
    // says it has not.
    *now_ms = tx.exec1("SELECT floor(extract(epoch FROM now()) * 1000)::bigint")[0].as<int64_t>();
    for (const auto& r : tx.exec("SELECT id FROM tournaments WHERE state = 'registering' AND starts_at <= now() "
                                 "ORDER BY starts_at, id"))
      ids->push_back(r[0].as<std::string>());
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::Start(const std::string& id, int entrants, const std::vector<ScheduledGame>& games,
                                      const std::string& reason, const TournamentSpec* next, bool* started) {
  *started = false;
  return RunPg(pool_, "start tournament", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (grpc::Status f = Fenced(tx, &fence_, check_fence_); !f.ok()) return f;
    if (LockedState(tx, id) != "starting") return grpc::Status::OK;
    // Started only with the entrants the scheduler made the schedule for: one
    // who entered after it read them makes the next pass start it instead.
    if (check_entrants_ &&
        tx.exec_params1("SELECT count(*) FROM tournament_entrants WHERE tournament_id = $1", id)[0].as<int>() !=
            entrants)
      return grpc::Status::OK;
    if (!reason.empty()) {
      tx.exec_params("UPDATE tournaments SET state = 'cancelled', reason = $2, finished_at = now() WHERE id = $1", id,
                     reason);
    } else {
      tx.exec_params("UPDATE tournaments SET state = 'running', starts_at = now() WHERE id = $1", id);
      InsertGames(tx, id, 0, games);
    }
    if (next) {
      // The entrants of the next occurrence are this one's at its start: the
      // spec's list is what the scheduler read, and an entry since is in the
      // table under the row lock held here.
      TournamentSpec entered = *next;
      entered.entrants.clear();
      if (InsertTournament(tx, entered))
        tx.exec_params(
            "INSERT INTO tournament_entrants (tournament_id, entrant, identity_id) "
            "SELECT $2, entrant, identity_id FROM tournament_entrants WHERE tournament_id = $1",
            id, next->id);
    }
    tx.commit();
    *started = true;
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::Get(const std::string& id, TournamentRow* out) {
  return RunPg(pool_, "get tournament", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    const pqxx::result r =
        tx.exec_params(std::string("SELECT ") + kTournamentColumns + " FROM tournaments t WHERE t.id = $1", id);
    if (r.empty()) return grpc::Status(grpc::StatusCode::NOT_FOUND, "no tournament " + id);
    *out = ReadTournament(r[0]);
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::List(std::vector<TournamentRow>* out) {
  return RunPg(pool_, "list tournaments", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    out->clear();
    for (const auto& r : tx.exec(std::string("SELECT ") + kTournamentColumns +
                                 " FROM tournaments t ORDER BY t.created_at DESC, t.id LIMIT 1000"))
      out->push_back(ReadTournament(r));
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::Games(const std::string& id, std::vector<TournamentGameRow>* out) {
  return RunPg(pool_, "tournament games", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    out->clear();
    for (const auto& r :
         tx.exec_params("SELECT number, round, set_no, rotation, entrants::text, chance_seed, board_seed, state, "
                        "coalesce(game_id, ''), coalesce(host, ''), attempts, "
                        "(extract(epoch FROM now() - state_since) * 1000)::bigint, coalesce(places::text, '') "
                        "FROM tournament_games WHERE tournament_id = $1 ORDER BY number",
                        id)) {
      TournamentGameRow g;
      g.number = r[0].as<int>();
      g.game.round = r[1].as<int>();
      g.game.set = r[2].as<int>();
      g.game.rotation = r[3].as<int>();
      g.game.entrants = ParseIntArray(r[4].as<std::string>());
      g.game.chance_seed = uint64_t(r[5].as<int64_t>());
      g.game.board_seed = uint64_t(r[6].as<int64_t>());
      g.state = r[7].as<std::string>();
      g.game_id = r[8].as<std::string>();
      g.host = r[9].as<std::string>();
      g.attempts = r[10].as<int>();
      g.state_age_ms = r[11].as<int64_t>();
      g.places = ParseIntArray(r[12].as<std::string>());
      out->push_back(std::move(g));
    }
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::Running(std::vector<std::string>* ids) {
  return RunPg(pool_, "running tournaments", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    ids->clear();
    for (const auto& r : tx.exec("SELECT id FROM tournaments WHERE state = 'running' ORDER BY created_at, id"))
      ids->push_back(r[0].as<std::string>());
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::SetState(const std::string& id, const std::string& state, const std::string& reason) {
  return RunPg(pool_, "tournament state", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    // Finishing is the scheduler's change; cancelling, an administrator's.
    if (grpc::Status f = Fenced(tx, &fence_, check_fence_, state == "finished"); !f.ok()) return f;
    const pqxx::result r = tx.exec_params(
        "UPDATE tournaments SET state = $2, reason = $3, finished_at = now() WHERE id = $1 "
        "AND (state = 'running' OR (state = 'registering' AND $2 = 'cancelled')) RETURNING id",
        id, state, reason);
    if (r.empty()) {
      const pqxx::result now = tx.exec_params("SELECT state FROM tournaments WHERE id = $1", id);
      if (now.empty()) return grpc::Status(grpc::StatusCode::NOT_FOUND, "no tournament " + id);
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          "tournament " + id + " is " + now[0][0].as<std::string>() + ", not running");
    }
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::Finish(const std::string& id, int number, const std::string& game_id,
                                       const std::vector<int>& places, bool* finished) {
  *finished = false;
  return RunPg(pool_, "tournament result", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (grpc::Status f = Fenced(tx, &fence_, check_fence_); !f.ok()) return f;
    // Only the attempt the schedule names now counts: a first attempt played
    // again (Requeue, then Claim gave the game a new id) stays void however late
    // its result comes, or whoever still believes it current (a stale snapshot).
    *finished = tx.exec_params(
                      "UPDATE tournament_games SET state = 'finished', places = $4::smallint[], "
                      "state_since = now() WHERE tournament_id = $1 AND number = $2 AND (game_id = $3 OR NOT $5) "
                      "AND state IN ('starting', 'playing')",
                      id, number, game_id, IntArray(places), check_attempt_)
                    .affected_rows() == 1;
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::Claim(const std::string& id, int number, const std::string& host, std::string* game_id,
                                      bool* claimed) {
  *claimed = false;
  return RunPg(pool_, "claim tournament game", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (grpc::Status f = Fenced(tx, &fence_, check_fence_); !f.ok()) return f;
    const pqxx::result r = tx.exec_params(
        "UPDATE tournament_games SET state = 'starting', attempts = attempts + 1, host = $3, "
        "game_id = 't-' || tournament_id || '-' || number || '-' || (attempts + 1), state_since = now() "
        "WHERE tournament_id = $1 AND number = $2 AND state = 'pending' RETURNING game_id",
        id, number, host);
    if (!r.empty()) {
      *game_id = r[0][0].as<std::string>();
      *claimed = true;
    }
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::MarkPlaying(const std::string& id, int number, const std::string& game_id,
                                            bool* marked) {
  *marked = false;
  return RunPg(pool_, "tournament game playing", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (grpc::Status f = Fenced(tx, &fence_, check_fence_); !f.ok()) return f;
    *marked = tx.exec_params(
                    "UPDATE tournament_games SET state = 'playing', state_since = now() "
                    "WHERE tournament_id = $1 AND number = $2 AND game_id = $3 AND state = 'starting'",
                    id, number, game_id)
                  .affected_rows() == 1;
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::Requeue(const std::string& id, int number, const std::string& game_id) {
  return RunPg(pool_, "requeue tournament game", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (grpc::Status f = Fenced(tx, &fence_, check_fence_); !f.ok()) return f;
    tx.exec_params(
        "UPDATE tournament_games SET state = 'pending', game_id = NULL, host = NULL, state_since = now() "
        "WHERE tournament_id = $1 AND number = $2 AND game_id = $3 AND state IN ('starting', 'playing')",
        id, number, game_id);
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::VoidUnstarted(const std::string& id, int* voided) {
  *voided = 0;
  return RunPg(pool_, "void unstarted games", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (grpc::Status f = Fenced(tx, &fence_, check_fence_); !f.ok()) return f;
    *voided = int(tx.exec_params("UPDATE tournament_games SET state = 'void', state_since = now() "
                                 "WHERE tournament_id = $1 AND state = 'pending' AND (set_no < 0 OR set_no NOT IN "
                                 "(SELECT set_no FROM tournament_games WHERE tournament_id = $1 AND set_no >= 0 "
                                 " AND state <> 'pending'))",
                                 id)
                      .affected_rows());
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::AddRound(const std::string& id, int round, const std::vector<ScheduledGame>& games) {
  return RunPg(pool_, "add tournament round", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (grpc::Status f = Fenced(tx, &fence_, check_fence_); !f.ok()) return f;
    // The tournament's row lock serialises two schedulers adding the same round.
    tx.exec_params("SELECT 1 FROM tournaments WHERE id = $1 FOR UPDATE", id);
    const pqxx::result r = tx.exec_params(
        "SELECT coalesce(max(number) + 1, 0), count(*) FILTER (WHERE round = $2) FROM tournament_games "
        "WHERE tournament_id = $1",
        id, round);
    if (r[0][1].as<int64_t>() > 0) return grpc::Status::OK;
    InsertGames(tx, id, r[0][0].as<int>(), games);
    tx.commit();
    return grpc::Status::OK;
  });
}

namespace {

// Game ids are "t-<tournament>-<number>-<attempt>" with a tournament id of
// letters, digits, '-' and '_': their text array needs no unquoting.
std::vector<std::string> ParseIdArray(const std::string& text) {
  std::vector<std::string> out;
  std::string id;
  for (char ch : text) {
    if (ch == '{') continue;
    if (ch == ',' || ch == '}') {
      if (!id.empty() && id != "NULL") out.push_back(id);
      id.clear();
    } else {
      id += ch;
    }
  }
  return out;
}

}  // namespace

grpc::Status PgTournamentStore::DueReveals(int limit, std::vector<DueReveal>* out) {
  out->clear();
  return RunPg(pool_, "due reveals", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    for (const auto& r : tx.exec_params("SELECT id FROM tournaments WHERE format <> 'duplicate' AND NOT revealed "
                                        "ORDER BY created_at, id LIMIT $1",
                                        limit))
      out->push_back({.tournament = r[0].as<std::string>(), .whole = true, .set = -1, .game_ids = {}});
    // Sets of the tournaments that have a finished game not yet revealed; a set
    // is due once every one of its games has finished.
    for (const auto& r :
         tx.exec_params("SELECT tournament_id, set_no, array_agg(game_id ORDER BY number)::text FROM tournament_games "
                        "WHERE set_no >= 0 AND tournament_id IN (SELECT DISTINCT tournament_id FROM tournament_games "
                        " WHERE state = 'finished' AND NOT revealed AND set_no >= 0) "
                        "GROUP BY tournament_id, set_no HAVING bool_and(state = 'finished') AND NOT bool_and(revealed) "
                        "ORDER BY tournament_id, set_no LIMIT $1",
                        limit))
      out->push_back({.tournament = r[0].as<std::string>(),
                      .whole = false,
                      .set = r[1].as<int>(),
                      .game_ids = ParseIdArray(r[2].as<std::string>())});
    return grpc::Status::OK;
  });
}

grpc::Status PgTournamentStore::MarkRevealed(const DueReveal& reveal) {
  return RunPg(pool_, "mark revealed", [&](pqxx::connection& c) {
    pqxx::work tx(c);
    if (grpc::Status f = Fenced(tx, &fence_, check_fence_); !f.ok()) return f;
    if (reveal.whole) {
      tx.exec_params("UPDATE tournaments SET revealed = true WHERE id = $1", reveal.tournament);
    } else {
      // Only the games that were revealed: the set's rows name them still (a
      // finished game keeps its id).
      for (const std::string& game_id : reveal.game_ids)
        tx.exec_params(
            "UPDATE tournament_games SET revealed = true WHERE tournament_id = $1 AND set_no = $2 AND game_id = $3",
            reveal.tournament, reveal.set, game_id);
    }
    tx.commit();
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::matchmaker
