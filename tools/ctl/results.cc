// leaderboard, rating, stored-games and queue: reading the ratings, replays and
// matchmaker services (--host is the service's address).
#include <grpcpp/client_context.h>

#include <cstdio>
#include <iostream>

#include "metropolis/v1/matchmaker.grpc.pb.h"
#include "metropolis/v1/ratings.grpc.pb.h"
#include "metropolis/v1/replays.grpc.pb.h"
#include "tools/ctl/commands.h"

namespace metropolis::ctl {
namespace {

std::string Fixed(double v, int digits = 2) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

}  // namespace

std::string LeaderboardTable(const v1::Leaderboard& board) {
  std::vector<std::vector<std::string>> rows = {{"rank", "player", "ordinal", "mu", "sigma", "games"}};
  for (const v1::LeaderboardEntry& e : board.entries()) {
    rows.push_back({std::to_string(e.rank()), e.name().empty() ? "#" + std::to_string(e.identity_id()) : e.name(),
                    Fixed(e.ordinal()), Fixed(e.mu()), Fixed(e.sigma()), std::to_string(e.games())});
  }
  return "ladder " + board.ladder() + ", season " + std::to_string(board.season()) + ": " +
         std::to_string(board.total()) + " ranked players\n" + FormatTable(rows);
}

int RunLeaderboard(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("leaderboard", "--ladder ID [flags]",
                   "Prints a ladder's leaderboard from the ratings service (--host): the top, a page by rank, or the\n"
                   "page around a player. Players still in their placement games are not ranked.");
  flags.Add({.name = "ladder", .value_name = "ID", .help = "the ladder"});
  flags.Add({.name = "season", .value_name = "N", .help = "the season (default: the current one)"});
  flags.Add({.name = "limit", .value_name = "N", .help = "entries (default 20, at most 500)"});
  flags.Add({.name = "offset", .value_name = "N", .help = "skip this many from the top"});
  flags.Add({.name = "around", .value_name = "IDENTITY", .help = "the page centred on this player's id"});
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  if (inv.flags.Get("ladder").empty()) return UsageError(inv.flags, "--ladder is required");
  int64_t season = 0, limit = 20, offset = 0, around = 0;
  int code = 0;
  if (!IntFlag(inv, "season", 1, INT32_MAX, &season, &code) || !IntFlag(inv, "limit", 1, 500, &limit, &code) ||
      !IntFlag(inv, "offset", 0, INT32_MAX, &offset, &code) || !IntFlag(inv, "around", 1, INT64_MAX, &around, &code))
    return code;
  auto stub = v1::Ratings::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::GetLeaderboardRequest request;
  request.set_ladder(inv.flags.Get("ladder"));
  request.set_season(uint32_t(season));
  request.set_limit(uint32_t(limit));
  request.set_offset(uint32_t(offset));
  request.set_around_identity_id(around);
  v1::Leaderboard board;
  if (grpc::Status s = stub->GetLeaderboard(&context, request, &board); !s.ok())
    return RpcError(inv, "GetLeaderboard", s);
  std::cout << (inv.global.json ? MessageJson(board) + "\n" : LeaderboardTable(board));
  return kExitOk;
}

int RunRating(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("rating", "--ladder ID --identity N [flags]",
                   "Prints one player's rating, rank and placement status, and the latest rating changes.");
  flags.Add({.name = "ladder", .value_name = "ID", .help = "the ladder"});
  flags.Add({.name = "season", .value_name = "N", .help = "the season (default: the current one)"});
  flags.Add({.name = "identity", .value_name = "N", .help = "the player's identity id"});
  flags.Add({.name = "history", .value_name = "N", .help = "rating changes shown (default 10)"});
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  if (inv.flags.Get("ladder").empty()) return UsageError(inv.flags, "--ladder is required");
  int64_t season = 0, identity = 0, history = 10;
  int code = 0;
  if (!IntFlag(inv, "season", 1, INT32_MAX, &season, &code) ||
      !IntFlag(inv, "identity", 1, INT64_MAX, &identity, &code) || !IntFlag(inv, "history", 1, 500, &history, &code))
    return code;
  if (identity == 0) return UsageError(inv.flags, "--identity is required");
  auto stub = v1::Ratings::NewStub(MakeChannel(inv.global));
  v1::PlayerRating rating;
  {
    grpc::ClientContext context;
    PrepareContext(inv.global, &context);
    v1::GetPlayerRatingRequest request;
    request.set_ladder(inv.flags.Get("ladder"));
    request.set_season(uint32_t(season));
    request.set_identity_id(identity);
    if (grpc::Status s = stub->GetPlayerRating(&context, request, &rating); !s.ok())
      return RpcError(inv, "GetPlayerRating", s);
  }
  v1::RatingHistory changes;
  {
    grpc::ClientContext context;
    PrepareContext(inv.global, &context);
    v1::GetRatingHistoryRequest request;
    request.set_ladder(inv.flags.Get("ladder"));
    request.set_season(uint32_t(season));
    request.set_identity_id(identity);
    request.set_limit(uint32_t(history));
    if (grpc::Status s = stub->GetRatingHistory(&context, request, &changes); !s.ok())
      return RpcError(inv, "GetRatingHistory", s);
  }
  if (inv.global.json) {
    std::cout << "{\"rating\":" << MessageJson(rating) << ",\"history\":" << MessageJson(changes) << "}\n";
    return kExitOk;
  }
  std::cout << "identity " << identity << " on " << rating.ladder() << " season " << rating.season() << ": mu "
            << Fixed(rating.mu()) << ", sigma " << Fixed(rating.sigma()) << ", ordinal " << Fixed(rating.ordinal())
            << ", " << rating.games() << " games, "
            << (rating.provisional()
                    ? "in placement (" + std::to_string(rating.placement_games()) + " games)"
                    : "rank " + std::to_string(rating.rank()) + " of " + std::to_string(rating.total()))
            << "\n";
  std::vector<std::vector<std::string>> rows = {{"game", "place", "mu before", "mu after", "sigma after", "at"}};
  for (const auto& e : changes.entries()) {
    rows.push_back({e.game_id(), std::to_string(e.rank()) + "/" + std::to_string(e.seats()), Fixed(e.mu_before()),
                    Fixed(e.mu_after()), Fixed(e.sigma_after()), FormatUnixMs(e.at_unix_ms())});
  }
  std::cout << FormatTable(rows);
  return kExitOk;
}

int RunStoredGames(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("stored-games", "[flags]", "Lists completed games from the replays service (--host), newest first.");
  flags.Add({.name = "ladder", .value_name = "ID", .help = "only this ladder's games"});
  flags.Add({.name = "identity", .value_name = "N", .help = "only this player's games"});
  flags.Add({.name = "limit", .value_name = "N", .help = "games (default 20, at most 500)"});
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  int64_t identity = 0, limit = 20;
  int code = 0;
  if (!IntFlag(inv, "identity", 1, INT64_MAX, &identity, &code) || !IntFlag(inv, "limit", 1, 500, &limit, &code))
    return code;
  auto stub = v1::Replays::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::ListStoredGamesRequest request;
  request.set_ladder(inv.flags.Get("ladder"));
  request.set_identity_id(identity);
  request.set_page_size(uint32_t(limit));
  v1::ListStoredGamesResponse response;
  if (grpc::Status s = stub->ListGames(&context, request, &response); !s.ok()) return RpcError(inv, "ListGames", s);
  if (inv.global.json) {
    std::cout << MessageJson(response) << "\n";
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows = {{"game", "ladder", "finished", "seats", "result"}};
  for (const auto& g : response.games()) {
    std::string seats, vp;
    for (const auto& s : g.seats()) seats += (seats.empty() ? "" : ",") + s.name();
    for (int i = 0; i < g.result().vp_size(); ++i) vp += (i ? "/" : "") + std::to_string(g.result().vp(i));
    const int winner = g.result().winner();
    const std::string result = winner >= 0 && winner < g.seats_size()
                                   ? "won by " + g.seats(winner).name() + ", vp " + vp
                                   : "no winner, vp " + vp;
    rows.push_back({g.game_id(), g.ladder(), FormatUnixMs(g.finished_unix_ms()), seats, result});
  }
  std::cout << FormatTable(rows);
  return kExitOk;
}

int RunQueue(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("queue", "--ladder ID [flags]",
                   "Prints a ladder's queue at the matchmaker (--host): players waiting, the longest wait, and the\n"
                   "game hosts with their room.");
  flags.Add({.name = "ladder", .value_name = "ID", .help = "the ladder"});
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  if (inv.flags.Get("ladder").empty()) return UsageError(inv.flags, "--ladder is required");
  auto stub = v1::Matchmaker::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::GetQueueRequest request;
  request.set_ladder(inv.flags.Get("ladder"));
  v1::QueueStatus status;
  if (grpc::Status s = stub->GetQueue(&context, request, &status); !s.ok()) return RpcError(inv, "GetQueue", s);
  if (inv.global.json) {
    std::cout << MessageJson(status) << "\n";
    return kExitOk;
  }
  std::cout << "ladder " << status.ladder() << ": " << status.queued() << " waiting, longest "
            << status.longest_wait_ms() / 1000.0 << " s\n";
  std::vector<std::vector<std::string>> rows = {{"host", "live", "capacity", "last heard"}};
  for (const auto& h : status.hosts())
    rows.push_back({h.address(), std::to_string(h.live()), std::to_string(h.capacity()),
                    Fixed(h.seen_ms_ago() / 1000.0, 1) + " s ago"});
  std::cout << FormatTable(rows);
  return kExitOk;
}

}  // namespace metropolis::ctl

namespace metropolis::ctl {

int RunExportGame(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("export-game", "ID [flags]",
                   "Prints a stored game as the engine's game record (one JSON line) from the replays service\n"
                   "(--host); `metropolis-engine replay --step N` shows any position of it.");
  flags.AllowPositionals();
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  if (inv.flags.positionals().size() != 1) return UsageError(inv.flags, "expected one game id");
  auto stub = v1::Replays::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::ExportGameRequest request;
  request.set_game_id(inv.flags.positionals()[0]);
  v1::ExportGameResponse response;
  if (grpc::Status s = stub->ExportGame(&context, request, &response); !s.ok()) return RpcError(inv, "ExportGame", s);
  std::cout << response.record_json();
  if (!response.record_json().empty() && response.record_json().back() != '\n') std::cout << "\n";
  return kExitOk;
}

}  // namespace metropolis::ctl
