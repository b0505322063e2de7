// The checks every ladder store shares: the ladder as a whole, its id, and
// updates applied to what is stored.
#include "services/accounts/ladder_store.h"

#include <algorithm>
#include <cmath>

#include "engine/config.h"

namespace metropolis::accounts {
namespace {

grpc::Status Invalid(const std::string& message) { return {grpc::StatusCode::INVALID_ARGUMENT, message}; }

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

}  // namespace

grpc::Status CheckLadderSpec(const LadderSpec& s) {
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

grpc::Status LadderStore::NoLadder(const std::string& id) {
  return {grpc::StatusCode::NOT_FOUND, "no ladder '" + id + "'"};
}

grpc::Status LadderStore::CreateLadder(const LadderSpec& spec, LadderInfo* out) {
  if (grpc::Status s = CheckLadderSpec(spec); !s.ok()) return s;
  LadderInfo stored;
  if (grpc::Status s = InsertLadder(spec, &stored); !s.ok()) return s;
  if (out) *out = std::move(stored);
  return grpc::Status::OK;
}

grpc::Status LadderStore::UpdateLadder(const std::string& ladder_id, const LadderUpdate& update, LadderInfo* out) {
  if (update.empty()) return Invalid("settings: none given, nothing to update");
  if (!ValidLadderId(ladder_id)) return NoLadder(ladder_id);
  LadderInfo stored;
  grpc::Status s = ChangeLadder(
      ladder_id,
      [&](LadderSpec* spec) {
        update.ApplyTo(spec);
        return CheckLadderSpec(*spec);
      },
      &stored);
  if (s.ok() && out) *out = std::move(stored);
  return s;
}

grpc::Status LadderStore::GetLadder(const std::string& ladder_id, LadderInfo* out) {
  if (!ValidLadderId(ladder_id)) return NoLadder(ladder_id);
  return FindLadder(ladder_id, out);
}

grpc::Status LadderStore::CreateSeason(const std::string& ladder_id, int* season_out) {
  if (!ValidLadderId(ladder_id)) return NoLadder(ladder_id);
  return OpenSeason(ladder_id, season_out);
}

}  // namespace metropolis::accounts
