// metropolisctl get-game and list-games.

#include <iostream>

#include "metropolis/v1/gamehost.grpc.pb.h"
#include "tools/ctl/commands.h"

namespace metropolis::ctl {
namespace {

// "FINISHED" for GAME_STATUS_FINISHED: tables are for people.
std::string StatusText(v1::GameStatus status) {
  std::string name = v1::GameStatus_Name(status);
  constexpr std::string_view kPrefix = "GAME_STATUS_";
  if (name.starts_with(kPrefix)) name.erase(0, kPrefix.size());
  return name.empty() ? std::to_string(int(status)) : name;
}

std::string Joined(const google::protobuf::RepeatedField<uint32_t>& values, std::string_view separator) {
  std::string out;
  for (int i = 0; i < values.size(); ++i) out += (i ? std::string(separator) : "") + std::to_string(values[i]);
  return out;
}

// ListGames pages until the last one; this many pages bound a host whose
// tokens never end.
constexpr int kMaxPages = 1000;

}  // namespace

std::string ResultText(const v1::GameResult& r) {
  std::string reason = v1::EndReason_Name(r.reason());
  constexpr std::string_view kPrefix = "END_REASON_";
  if (reason.starts_with(kPrefix)) reason.erase(0, kPrefix.size());
  std::string out = reason.empty() ? std::to_string(int(r.reason())) : reason;
  out += r.winner() >= 0 ? ", winner seat " + std::to_string(r.winner()) : ", no winner";
  if (r.vp_size() > 0) out += ", vp " + Joined(r.vp(), "/");
  return out + ", " + std::to_string(r.actions()) + " actions, " + std::to_string(r.turns()) + " turns";
}

std::string GameInfoTable(const v1::GameInfo& info) {
  std::vector<std::vector<std::string>> head = {
      {"game", info.game_id()},
      {"host", info.host()},
      {"status", StatusText(info.status())},
      {"step", std::to_string(info.step()) + " (turn " + std::to_string(info.turn()) + ")"},
      {"created", FormatUnixMs(info.created_unix_ms())},
  };
  if (!info.ladder().empty()) head.push_back({"ladder", info.ladder()});
  if (info.status() == v1::GAME_STATUS_FINISHED) head.push_back({"result", ResultText(info.result())});
  std::vector<std::vector<std::string>> seats = {
      {"seat", "name", "played by", "connected", "decisions", "fallback", "vp"}};
  for (int i = 0; i < info.players_size(); ++i) {
    const v1::PlayerInfo& p = info.players(i);
    const int seat = int(p.seat());
    seats.push_back({std::to_string(seat), p.name(), p.built_in() ? "built-in bot" : "client",
                     p.built_in() ? "-" : (p.connected() ? "yes" : "no"), std::to_string(p.decisions()),
                     std::to_string(p.fallback_decisions()),
                     seat < info.vp_size() ? std::to_string(info.vp(seat)) : "-"});
  }
  return FormatTable(head) + "\n" + FormatTable(seats);
}

std::string GameListTable(const std::vector<v1::GameInfo>& games) {
  std::vector<std::vector<std::string>> rows = {{"game", "status", "step", "turn", "seats", "created"}};
  for (const v1::GameInfo& g : games) {
    std::string seats;
    for (int i = 0; i < g.players_size(); ++i) seats += (i ? "," : "") + g.players(i).name();
    rows.push_back({g.game_id(), StatusText(g.status()), std::to_string(g.step()), std::to_string(g.turn()), seats,
                    FormatUnixMs(g.created_unix_ms())});
  }
  return FormatTable(rows);
}

int RunGetGame(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("get-game", "ID [flags]",
                   "Prints one game, live or finished: status, step, seats (connected, decisions answered, decisions\n"
                   "the fallback bot took), and the result. Needs an administrator, spectator or seat token.");
  flags.AllowPositionals();
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  if (inv.flags.positionals().size() != 1) return UsageError(inv.flags, "expected one game id");

  auto stub = v1::GameHost::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::GetGameRequest request;
  request.set_game_id(inv.flags.positionals()[0]);
  v1::GameInfo info;
  const grpc::Status status = stub->GetGame(&context, request, &info);
  if (!status.ok()) return RpcError(inv, "GetGame", status);
  std::cout << (inv.global.json ? MessageJson(info) + "\n" : GameInfoTable(info));
  return kExitOk;
}

int RunListGames(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("list-games", "[flags]",
                   "Lists the live games of the host, every page of them. Needs an administrator or spectator token.");
  flags.Add({.name = "page-size", .value_name = "N", .help = "games per ListGames call (default: the host's)"});
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  int64_t page_size = 0;
  std::string error;
  if (inv.flags.Has("page-size") && !inv.flags.GetInt("page-size", 1, 1000, &page_size, &error))
    return UsageError(inv.flags, error);

  auto stub = v1::GameHost::NewStub(MakeChannel(inv.global));
  v1::ListGamesResponse all;
  v1::ListGamesRequest request;
  request.set_page_size(uint32_t(page_size));
  for (int page = 0; page < kMaxPages; ++page) {
    grpc::ClientContext context;
    PrepareContext(inv.global, &context);
    v1::ListGamesResponse response;
    const grpc::Status status = stub->ListGames(&context, request, &response);
    if (!status.ok()) return RpcError(inv, "ListGames", status);
    for (v1::GameInfo& g : *response.mutable_games()) *all.add_games() = std::move(g);
    if (response.next_page_token().empty()) break;
    request.set_page_token(response.next_page_token());
  }
  if (inv.global.json) {
    std::cout << MessageJson(all) << "\n";
  } else {
    std::cout << GameListTable({all.games().begin(), all.games().end()});
  }
  return kExitOk;
}

}  // namespace metropolis::ctl
