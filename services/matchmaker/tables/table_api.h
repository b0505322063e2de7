// The friends' tables' calls (Matchmaker.CreateTable ... RematchTable) as logic
// over the tables (tables.h), the game hosts (GameCreator) and the host
// registry, with the caller already known: service.cc authenticates and hands
// over who acts. Starting a round creates its game on a host under the id
// "table-<table>-<round>", so the round's game is created once whoever finishes
// the start; a player's seat is handed out by the host itself (SeatsOf, a fresh
// token), so no seat token is ever kept in the table.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "metropolis/v1/matchmaker.pb.h"
#include "services/matchmaker/host_registry.h"
#include "services/matchmaker/matchmaker.h"
#include "services/matchmaker/tables/tables.h"

namespace metropolis::matchmaker::tables {

// The ladder label of unrated tables' games (GameHost.SeatsOf looks seats up
// by ladder); rated tables' games carry their ladder's id.
inline constexpr char kUnratedLabel[] = "friends-table";

struct TableApiOptions {
  int64_t host_ttl_ms = 15'000;  // a host without a heartbeat for this long gets no games
  // The ladders a table may be rated on (MatchmakerConfig::table_ladders).
  std::vector<std::string> rated_ladders = {};
  std::string bot_prefix = "bot:";
  // A stalled start is finished on the host its first attempt recorded (where
  // the game may already exist). Off only as a negative control: the take-over
  // picks a host afresh, and a round's game can be created twice.
  bool reuse_recorded_host = true;
};

class TableApi {
 public:
  using FindLadder = std::function<bool(const std::string& id, LadderConfig* out)>;
  using Clock = std::function<grpc::Status(int64_t* now_ms)>;

  TableApi(Tables* tables, HostRegistry* hosts, GameCreator* games, FindLadder find_ladder, Clock clock,
           TableApiOptions options = {});

  grpc::Status Create(const Member& who, const v1::TableSettings& settings, v1::FriendsTable* out);
  grpc::Status Get(const Member& who, const std::string& id, bool claim_seat, v1::FriendsTable* out);
  grpc::Status Join(const Member& who, const std::string& id, v1::FriendsTable* out);
  grpc::Status Leave(const Member& who, const std::string& id, v1::FriendsTable* out);
  grpc::Status Start(const Member& who, const std::string& id, v1::FriendsTable* out);
  grpc::Status Rematch(const Member& who, const std::string& id, uint32_t round, v1::FriendsTable* out);

  // The game a table's round is played in.
  static std::string GameId(const FriendsTable& table);
  // The host's request for the round's game (the table starting that round).
  v1::CreateGameRequest GameFor(const FriendsTable& table, const LadderConfig* ladder) const;

 private:
  // Creates the starting round's game and marks the table playing.
  grpc::Status FinishStart(FriendsTable table, v1::FriendsTable* out);
  grpc::Status CreateOn(const FriendsTable& table, const std::string& host);
  bool GameOver(const FriendsTable& table);
  // The host that runs the table's game now: the one recorded, or the one it
  // names as having taken the game over. *game and *status: the last Lookup.
  std::string HostOf(const FriendsTable& table, v1::GameInfo* game, grpc::Status* status);
  grpc::Status Answer(const FriendsTable& table, v1::FriendsTable* out);

  Tables* tables_;
  HostRegistry* hosts_;
  GameCreator* games_;
  FindLadder find_ladder_;
  Clock clock_;
  const TableApiOptions options_;
};

// The settings as asked for, with the defaults for what was left out.
TableSettings SettingsFromProto(const v1::TableSettings& in);

}  // namespace metropolis::matchmaker::tables
