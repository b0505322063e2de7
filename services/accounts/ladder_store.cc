#include "services/accounts/ladder_store.h"

#include <algorithm>
#include <cmath>
#include <pqxx/pqxx>

#include "engine/config.h"
#include "lib/storage/pg_status.h"

namespace metropolis::accounts {
namespace {

grpc::Status Invalid(const std::string& message) { return {grpc::StatusCode::INVALID_ARGUMENT, message}; }
grpc::Status NoLadder(const std::string& id) { return {grpc::StatusCode::NOT_FOUND, "no ladder '" + id + "'"}; }

// Timestamps leave the database as Unix milliseconds.
std::string Ms(const std::string& column) { return "(extract(epoch FROM " + column + ") * 1000)::bigint"; }

// A ladder with its open season, in the columns ReadLadder reads.
const std::string kSelectLadders =
    "SELECT l.id, l.title, l.ruleset, l.seats, l.placement_games, l.mu, l.sigma, l.beta, l.kappa, l.tau, " +
    Ms("l.created_at") + ", coalesce(s.season, 0), coalesce(" + Ms("s.starts_at") +
    ", 0), l.options, coalesce(l.allow_three_after_ms, -1), coalesce(l.bot_fill_after_ms, -1), l.decision_ms, "
    "l.time_bank_ms, (SELECT coalesce(max(season), 0) FROM seasons WHERE ladder_id = l.id) "
    "FROM ladders l LEFT JOIN seasons s ON s.ladder_id = l.id AND s.ends_at IS NULL";

LadderInfo ReadLadder(const pqxx::row& r) {
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
  spec.options = r[13].as<std::string>();
  spec.allow_three_after_ms = r[14].as<int64_t>();
  spec.bot_fill_after_ms = r[15].as<int64_t>();
  spec.decision_ms = r[16].as<int>();
  spec.time_bank_ms = r[17].as<int>();
  info.latest_season = r[18].as<int>();
  return info;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The matchmaker reads the options with the engine's parser and leaves a ladder
// whose options it cannot read out of matchmaking, with only a log line to say
// so: a typo is refused here instead.
grpc::Status CheckOptions(const std::string& ruleset, const std::string& text) {
  if (text.size() > kMaxOptionsLength)
    return Invalid("options: longer than " + std::to_string(kMaxOptionsLength) + " bytes");
  RulesOptions options = DefaultOptions(ruleset == "base" ? Ruleset::kBase : Ruleset::kCitiesAndKnights);
  size_t pos = 0;
  while ((pos = text.find_first_not_of(' ', pos)) != std::string::npos) {
    const size_t end = std::min(text.find(' ', pos), text.size());
    const std::string_view item = std::string_view(text).substr(pos, end - pos);
    // Two rulesets for one ladder: the field is the one every reader sees.
    if (item.starts_with("ruleset="))
      return Invalid("options: '" + std::string(item) + "': the ruleset is the ladder's ruleset field");
    if (std::string e = ParseOption(item, &options); !e.empty()) return Invalid("options: " + e);
    pos = end;
  }
  return grpc::Status::OK;
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
  if (grpc::Status o = CheckOptions(s.ruleset, s.options); !o.ok()) return o;
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

bool LadderUpdate::empty() const {
  return !title && !ruleset && !options && !seats && !placement_games && !decision_ms && !time_bank_ms && !mu &&
         !sigma && !beta && !kappa && !tau && !allow_three_after_ms && !bot_fill_after_ms;
}

void LadderUpdate::ApplyTo(LadderSpec* spec) const {
  if (title) spec->title = *title;
  if (ruleset) spec->ruleset = *ruleset;
  if (options) spec->options = *options;
  if (seats) spec->seats = *seats;
  if (placement_games) spec->placement_games = *placement_games;
  if (decision_ms) spec->decision_ms = *decision_ms;
  if (time_bank_ms) spec->time_bank_ms = *time_bank_ms;
  if (mu) spec->mu = *mu;
  if (sigma) spec->sigma = *sigma;
  if (beta) spec->beta = *beta;
  if (kappa) spec->kappa = *kappa;
  if (tau) spec->tau = *tau;
  if (allow_three_after_ms) spec->allow_three_after_ms = *allow_three_after_ms;
  if (bot_fill_after_ms) spec->bot_fill_after_ms = *bot_fill_after_ms;
}

grpc::Status LadderStore::CreateLadder(const LadderSpec& spec, LadderInfo* out) {
  if (grpc::Status s = CheckSpec(spec); !s.ok()) return s;
  return storage::RunPg(pool_, "create ladder", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    const pqxx::result inserted = tx.exec_params(
        "INSERT INTO ladders (id, title, ruleset, seats, placement_games, mu, sigma, beta, kappa, tau, options, "
        " allow_three_after_ms, bot_fill_after_ms, decision_ms, time_bank_ms) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULLIF($12::int, -1), NULLIF($13::int, -1), $14, $15) "
        "ON CONFLICT (id) DO NOTHING RETURNING " +
            Ms("created_at"),
        spec.id, spec.title, spec.ruleset, spec.seats, spec.placement_games, spec.mu, spec.sigma, spec.beta, spec.kappa,
        spec.tau, spec.options, spec.allow_three_after_ms, spec.bot_fill_after_ms, spec.decision_ms, spec.time_bank_ms);
    if (inserted.empty()) return {grpc::StatusCode::ALREADY_EXISTS, "ladder '" + spec.id + "' exists"};
    tx.commit();
    if (out) *out = {spec, inserted[0][0].as<int64_t>(), 0, 0};
    return grpc::Status::OK;
  });
}

grpc::Status LadderStore::UpdateLadder(const std::string& ladder_id, const LadderUpdate& update, LadderInfo* out) {
  if (update.empty()) return Invalid("settings: none given, nothing to update");
  if (!ValidLadderId(ladder_id)) return NoLadder(ladder_id);
  return storage::RunPg(pool_, "update ladder", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // The row lock makes two updates of one ladder apply one after the other,
    // each to what the other left, and the whole checked as one ladder.
    const pqxx::result r = tx.exec_params(kSelectLadders + " WHERE l.id = $1 FOR UPDATE OF l", ladder_id);
    if (r.empty()) return NoLadder(ladder_id);
    LadderInfo info = ReadLadder(r[0]);
    update.ApplyTo(&info.spec);
    if (grpc::Status s = CheckSpec(info.spec); !s.ok()) return s;
    const LadderSpec& spec = info.spec;
    tx.exec_params(
        "UPDATE ladders SET title = $2, ruleset = $3, seats = $4, placement_games = $5, mu = $6, sigma = $7, "
        " beta = $8, kappa = $9, tau = $10, options = $11, allow_three_after_ms = NULLIF($12::int, -1), "
        " bot_fill_after_ms = NULLIF($13::int, -1), decision_ms = $14, time_bank_ms = $15 "
        "WHERE id = $1",
        spec.id, spec.title, spec.ruleset, spec.seats, spec.placement_games, spec.mu, spec.sigma, spec.beta, spec.kappa,
        spec.tau, spec.options, spec.allow_three_after_ms, spec.bot_fill_after_ms, spec.decision_ms, spec.time_bank_ms);
    tx.commit();
    if (out) *out = std::move(info);
    return grpc::Status::OK;
  });
}

grpc::Status LadderStore::GetLadder(const std::string& ladder_id, LadderInfo* out) {
  if (!ValidLadderId(ladder_id)) return NoLadder(ladder_id);
  return storage::RunPg(pool_, "get ladder", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::read_transaction tx(c);
    const pqxx::result r = tx.exec_params(kSelectLadders + " WHERE l.id = $1", ladder_id);
    if (r.empty()) return NoLadder(ladder_id);
    *out = ReadLadder(r[0]);
    return grpc::Status::OK;
  });
}

grpc::Status LadderStore::CreateSeason(const std::string& ladder_id, int* season_out) {
  if (!ValidLadderId(ladder_id)) return NoLadder(ladder_id);
  return storage::RunPg(pool_, "create season", [&](pqxx::connection& c) -> grpc::Status {
    pqxx::work tx(c);
    // The ladder's row lock serialises two administrators opening seasons at once.
    if (tx.exec_params("SELECT 1 FROM ladders WHERE id = $1 FOR UPDATE", ladder_id).empty()) return NoLadder(ladder_id);
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
    for (const auto& r : tx.exec(kSelectLadders + " ORDER BY l.id")) out->push_back(ReadLadder(r));
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::accounts
