// Ladders and their seasons, as the administrator creates them (PostgreSQL in
// production, pg_ladder_store.h). The public calls check the ladder here, once
// for every implementation; the implementation stores it.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace metropolis::accounts {

// The defaults are the table's (docs/RATINGS.md explains the rating parameters).
struct LadderSpec {
  std::string id;  // ^[a-z0-9][a-z0-9_-]{0,63}$
  std::string title;
  std::string ruleset = "cities_and_knights";  // or "base"
  int seats = 4;                               // 3 or 4
  int placement_games = 10;
  double mu = 25, sigma = 25.0 / 3, beta = 25.0 / 6, kappa = 0.0001, tau = 25.0 / 300;
  // Matchmaking and play (the matchmaker reads these).
  std::string options;                // the engine's "name=value ..." rules options
  int64_t allow_three_after_ms = -1;  // a 4-seat ladder forms tables of 3 after this wait; -1 never
  int64_t bot_fill_after_ms = -1;     // built-in bots fill empty seats after this wait; -1 never
  int decision_ms = 10'000;
  int time_bank_ms = 60'000;
};

struct LadderInfo {
  LadderSpec spec;
  int64_t created_unix_ms = 0;
  int season = 0;  // the open season, 0 when none is open
  int64_t season_started_unix_ms = 0;
  int latest_season = 0;  // the newest season, open or closed; 0 before the first
};

// The settings an update changes; those left empty keep their value.
struct LadderUpdate {
  std::optional<std::string> title, ruleset, options;
  std::optional<int> seats, placement_games, decision_ms, time_bank_ms;
  std::optional<double> mu, sigma, beta, kappa, tau;
  std::optional<int64_t> allow_three_after_ms, bot_fill_after_ms;

  bool empty() const;
  void ApplyTo(LadderSpec* spec) const;
};

bool ValidLadderId(std::string_view id);
inline constexpr size_t kMaxTitleLength = 200;
inline constexpr size_t kMaxOptionsLength = 1000;

// INVALID_ARGUMENT naming the first field of `spec` that is not a valid ladder
// (its options read as the matchmaker reads them), OK otherwise.
grpc::Status CheckLadderSpec(const LadderSpec& spec);

// Every call answers UNAVAILABLE when the store cannot be reached, and changes
// nothing then.
class LadderStore {
 public:
  virtual ~LadderStore() = default;

  // INVALID_ARGUMENT names the first bad field; ALREADY_EXISTS for a taken id.
  // `out` (optional) receives the ladder as stored.
  grpc::Status CreateLadder(const LadderSpec& spec, LadderInfo* out = nullptr);
  // Applies `update` to the ladder and stores the result if it is a valid ladder
  // as a whole (INVALID_ARGUMENT naming the first bad field otherwise, nothing
  // changed). NOT_FOUND for an unknown ladder; INVALID_ARGUMENT for an empty
  // update. `out` (optional) receives the ladder as stored.
  grpc::Status UpdateLadder(const std::string& ladder_id, const LadderUpdate& update, LadderInfo* out = nullptr);
  grpc::Status GetLadder(const std::string& ladder_id, LadderInfo* out);  // NOT_FOUND
  // Opens the ladder's next season (1 for the first) and closes the open one at
  // the same instant, so seasons abut. NOT_FOUND for an unknown ladder.
  grpc::Status CreateSeason(const std::string& ladder_id, int* season_out);
  virtual grpc::Status ListLadders(std::vector<LadderInfo>* out) = 0;  // by id

 protected:
  // A checked ladder stored; ALREADY_EXISTS for a taken id.
  virtual grpc::Status InsertLadder(const LadderSpec& spec, LadderInfo* out) = 0;
  // Runs `change` on the stored ladder with every other change of it held off
  // (two updates apply one after the other, each to what the other left), and
  // stores the result when `change` answers OK; NOT_FOUND for an unknown ladder.
  using LadderChange = std::function<grpc::Status(LadderSpec*)>;
  virtual grpc::Status ChangeLadder(const std::string& ladder_id, const LadderChange& change, LadderInfo* out) = 0;
  virtual grpc::Status FindLadder(const std::string& ladder_id, LadderInfo* out) = 0;  // NOT_FOUND
  // The next season opened and the open one closed, one ladder at a time.
  virtual grpc::Status OpenSeason(const std::string& ladder_id, int* season_out) = 0;  // NOT_FOUND
  // "no ladder 'x'", the NOT_FOUND every implementation answers.
  static grpc::Status NoLadder(const std::string& id);
};

}  // namespace metropolis::accounts
