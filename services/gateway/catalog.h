// What the gateway reads of the accounts: ladders with their seasons, and
// identities (players and bots) by name, through the Accounts service's public
// reads (accounts.proto: ReadLadders, GetIdentity, SearchIdentities).
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metropolis::gateway {

struct SeasonRow {
  int season = 0;
  int64_t starts_unix_ms = 0;
  int64_t ends_unix_ms = 0;  // 0 while open
};

struct LadderRow {
  std::string id, title, ruleset, options;
  int seats = 4, placement_games = 0, decision_ms = 0, time_bank_ms = 0;
  int64_t allow_three_after_ms = -1, bot_fill_after_ms = -1;  // -1: never
  double mu = 0, sigma = 0;
  int64_t created_unix_ms = 0;
  std::vector<SeasonRow> seasons;  // oldest first
  // The open season, 0 when none is.
  int current_season() const;
};

struct PlayerRow {
  int64_t id = 0;
  std::string kind;  // "player" or "bot"
  std::string name;
  std::string owner;  // a bot's owner; empty for players
  int64_t created_unix_ms = 0;
};

class Backends;

class Catalog {
 public:
  explicit Catalog(Backends* backends) : backends_(backends) {}

  // Every ladder by id, with its seasons. UNAVAILABLE while the Accounts service is down.
  grpc::Status Ladders(std::vector<LadderRow>* out);
  // NOT_FOUND "ladder 'x' does not exist".
  grpc::Status Ladder(const std::string& id, LadderRow* out);
  // By name as spelt, else regardless of case (names are unique regardless of
  // case). NOT_FOUND "player 'x' does not exist".
  grpc::Status Player(const std::string& name, PlayerRow* out);
  // Names starting with `prefix` (as typed, lower case or capitalised), by
  // name, at most `limit`.
  grpc::Status SearchPlayers(const std::string& prefix, int limit, std::vector<PlayerRow>* out);

 private:
  Backends* backends_;
};

}  // namespace metropolis::gateway
