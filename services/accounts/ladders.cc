#include "services/accounts/ladders.h"

#include <cmath>
#include <pqxx/pqxx>

#include "services/storage/pg_status.h"

namespace metropolis::accounts {
namespace {

grpc::Status Invalid(const std::string& message) { return {grpc::StatusCode::INVALID_ARGUMENT, message}; }

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

grpc::Status CheckSpec(const LadderSpec& s) {
  if (!ValidLadderId(s.id))
    return Invalid("id: '" + s.id + "' is not 1 to 64 of a-z, 0-9, '_' and '-', starting with a letter or digit");
  if (s.title.size() > kMaxTitleLength)
    return Invalid("title: longer than " + std::to_string(kMaxTitleLength) + " bytes");
  for (char c : s.title)  // tables print a title on one line
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return Invalid("title: control characters are not allowed");
  if (s.ruleset != "cities_and_knights" && s.ruleset != "base")
    return Invalid("ruleset: '" + s.ruleset + "' is neither 'cities_and_knights' nor 'base'");
  if (s.seats != 3 && s.seats != 4) return Invalid("seats: " + std::to_string(s.seats) + " is neither 3 nor 4");
  if (s.placement_games < 0) return Invalid("placement_games: " + std::to_string(s.placement_games) + " is negative");
  if (s.allow_three_after_ms < -1 || s.allow_three_after_ms > INT32_MAX)
    return Invalid("allow_three_after_ms: -1 (never) or 0 to 2147483647");
  if (s.bot_fill_after_ms < -1 || s.bot_fill_after_ms > INT32_MAX)
    return Invalid("bot_fill_after_ms: -1 (never) or 0 to 2147483647");
  if (s.allow_three_after_ms >= 0 && s.seats != 4) return Invalid("allow_three_after_ms: only for 4-seat ladders");
  if (s.decision_ms <= 0) return Invalid("decision_ms: " + std::to_string(s.decision_ms) + " is not positive");
  if (s.time_bank_ms < 0) return Invalid("time_bank_ms: " + std::to_string(s.time_bank_ms) + " is negative");
  if (!std::isfinite(s.mu)) return Invalid("mu: not a finite number");
  // The rating update divides by sigma and beta and takes kappa as a floor;
  // tau may be 0 (sigma then only shrinks).
  const struct {
    const char* name;
    double value;
    bool may_be_zero;
  } positive[] = {{"sigma", s.sigma, false}, {"beta", s.beta, false}, {"kappa", s.kappa, false}, {"tau", s.tau, true}};
  for (const auto& p : positive) {
    if (!std::isfinite(p.value) || p.value < 0 || (p.value == 0 && !p.may_be_zero))
      return Invalid(std::string(p.name) + ": " + Number(p.value) + " is not " +
                     (p.may_be_zero ? "zero or positive" : "positive"));
  }
  return grpc::Status::OK;
}

}  // namespace

bool ValidLadderId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '_' && c != '-'))) return false;
  }
  return true;
}

grpc::Status LadderStore::CreateLadder(const LadderSpec& spec) {
  if (grpc::Status s = CheckSpec(spec); !s.ok()) return s;
  return storage::RunPg(pool_, "create ladder", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    const pqxx::result inserted = tx.exec_params(
        "INSERT INTO ladders (id, title, ruleset, seats, placement_games, mu, sigma, beta, kappa, tau, options, "
        " allow_three_after_ms, bot_fill_after_ms, decision_ms, time_bank_ms) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULLIF($12::int, -1), NULLIF($13::int, -1), $14, $15) "
        "ON CONFLICT (id) DO NOTHING RETURNING id",
        spec.id, spec.title, spec.ruleset, spec.seats, spec.placement_games, spec.mu, spec.sigma, spec.beta, spec.kappa,
        spec.tau, spec.options, spec.allow_three_after_ms, spec.bot_fill_after_ms, spec.decision_ms, spec.time_bank_ms);
    if (inserted.empty()) return {grpc::StatusCode::ALREADY_EXISTS, "ladder '" + spec.id + "' exists"};
    tx.commit();
    return grpc::Status::OK;
  });
}

grpc::Status LadderStore::CreateSeason(const std::string& ladder_id, int* season_out) {
  if (!ValidLadderId(ladder_id)) return {grpc::StatusCode::NOT_FOUND, "no ladder '" + ladder_id + "'"};
  return storage::RunPg(pool_, "create season", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // The ladder's row lock serialises two administrators opening seasons at once.
    if (tx.exec_params("SELECT 1 FROM ladders WHERE id = $1 FOR UPDATE", ladder_id).empty())
      return {grpc::StatusCode::NOT_FOUND, "no ladder '" + ladder_id + "'"};
    // clock_timestamp(), not now(): this transaction may have begun before the
    // open season's, while it waited for the lock, and a season must end after it
    // starts.
    const pqxx::row row = tx.exec_params1(
        "WITH closed AS ("
        "  UPDATE seasons SET ends_at = greatest(clock_timestamp(), starts_at + interval '1 microsecond') "
        "  WHERE ladder_id = $1 AND ends_at IS NULL RETURNING ends_at) "
        "INSERT INTO seasons (ladder_id, season, starts_at) "
        "SELECT $1, coalesce((SELECT max(season) FROM seasons WHERE ladder_id = $1), 0) + 1, "
        "  coalesce((SELECT max(ends_at) FROM closed), clock_timestamp()) "
        "RETURNING season",
        ladder_id);
    tx.commit();
    *season_out = row[0].as<int>();
    return grpc::Status::OK;
  });
}

grpc::Status LadderStore::ListLadders(std::vector<LadderInfo>* out) {
  return storage::RunPg(pool_, "list ladders", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    out->clear();
    for (const auto& r :
         tx.exec("SELECT l.id, l.title, l.ruleset, l.seats, l.placement_games, l.mu, l.sigma, l.beta, l.kappa, l.tau, "
                 " (extract(epoch FROM l.created_at) * 1000)::bigint, coalesce(s.season, 0), "
                 " coalesce((extract(epoch FROM s.starts_at) * 1000)::bigint, 0), l.options, "
                 " coalesce(l.allow_three_after_ms, -1), coalesce(l.bot_fill_after_ms, -1), l.decision_ms, "
                 " l.time_bank_ms "
                 "FROM ladders l LEFT JOIN seasons s ON s.ladder_id = l.id AND s.ends_at IS NULL ORDER BY l.id")) {
      LadderInfo info;
      LadderSpec& spec = info.spec;
      spec.id = r[0].as<std::string>();
      spec.title = r[1].as<std::string>();
      spec.ruleset = r[2].as<std::string>();
      spec.seats = r[3].as<int>();
      spec.placement_games = r[4].as<int>();
      spec.mu = r[5].as<double>();
      spec.sigma = r[6].as<double>();
      spec.beta = r[7].as<double>();
      spec.kappa = r[8].as<double>();
      spec.tau = r[9].as<double>();
      info.created_unix_ms = r[10].as<int64_t>();
      info.season = r[11].as<int>();
      info.season_started_unix_ms = r[12].as<int64_t>();
      info.spec.options = r[13].as<std::string>();
      info.spec.allow_three_after_ms = r[14].as<int64_t>();
      info.spec.bot_fill_after_ms = r[15].as<int64_t>();
      info.spec.decision_ms = r[16].as<int>();
      info.spec.time_bank_ms = r[17].as<int>();
      out->push_back(std::move(info));
    }
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::accounts
