// The subcommands of metropolisctl, and the plain functions behind them that
// the tests check without a server. Each Run* takes the arguments after the
// command's name (global flags included) and returns the exit code (ctl.h).
#pragma once

#include <string>
#include <vector>

#include "engine/cli/flags.h"
#include "metropolis/v1/gamehost.pb.h"
#include "metropolis/v1/ratings.pb.h"
#include "services/ctl/ctl.h"

namespace metropolis::ctl {

int RunHealth(const std::vector<std::string>& args, const GetEnv& env);
int RunReflect(const std::vector<std::string>& args, const GetEnv& env);
int RunCreateGame(const std::vector<std::string>& args, const GetEnv& env);
int RunGetGame(const std::vector<std::string>& args, const GetEnv& env);
int RunListGames(const std::vector<std::string>& args, const GetEnv& env);
int RunWatch(const std::vector<std::string>& args, const GetEnv& env);
int RunLeaderboard(const std::vector<std::string>& args, const GetEnv& env);
int RunRating(const std::vector<std::string>& args, const GetEnv& env);
int RunStoredGames(const std::vector<std::string>& args, const GetEnv& env);
int RunQueue(const std::vector<std::string>& args, const GetEnv& env);
int RunExportGame(const std::vector<std::string>& args, const GetEnv& env);

// create-game (create_game.cc)
cli::Flags CreateGameFlags();
// The request the flags describe; false with *error naming the flag.
bool BuildCreateGameRequest(const cli::Flags& flags, v1::CreateGameRequest* out, std::string* error);
// Exactly {"game_id":"...","seat_tokens":["...",...],"host":"..."}.
std::string CreateGameJson(const v1::CreateGameResponse& response);
std::string CreateGameTable(const v1::CreateGameRequest& request, const v1::CreateGameResponse& response);

// get-game and list-games (games.cc)
std::string GameInfoTable(const v1::GameInfo& info);
std::string GameListTable(const std::vector<v1::GameInfo>& games);
// "WON, winner seat 2, vp 13/8/7/9, 1234 actions, 80 turns"
std::string ResultText(const v1::GameResult& result);

// watch (watch.cc): the text line of one update, empty for updates that
// print nothing (the public view after each step); events give one line each.
std::vector<std::string> SpectateLines(const v1::SpectateUpdate& update);

// leaderboard, rating, stored-games, queue (results.cc)
std::string LeaderboardTable(const v1::Leaderboard& board);

}  // namespace metropolis::ctl
