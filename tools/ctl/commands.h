// The subcommands of metropolisctl, and the plain functions behind them that
// the tests check without a server. Each Run* takes the arguments after the
// command's name (global flags included) and returns the exit code (ctl.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lib/flags/flags.h"
#include "metropolis/v1/accounts.pb.h"
#include "metropolis/v1/gamehost.pb.h"
#include "metropolis/v1/matchmaker.pb.h"
#include "metropolis/v1/ratings.pb.h"
#include "metropolis/v1/replays.pb.h"
#include "tools/ctl/ctl.h"

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
int RunEnqueue(const std::vector<std::string>& args, const GetEnv& env);
// enqueue (enqueue.cc): "queued on ticket T: position 2 of 5, waited 3 s (rating 25)"
std::string QueuedLine(const v1::Queued& queued);
int RunExportGame(const std::vector<std::string>& args, const GetEnv& env);
// export-games (export_games.cc): a ladder's or a tournament's games as JSON lines.
int RunExportGames(const std::vector<std::string>& args, const GetEnv& env);
// game-debug (game_debug.cc): a stored game's debug channel, for its bots' authors.
int RunGameDebug(const std::vector<std::string>& args, const GetEnv& env);
// Per seat a summary line (answers, think median/p90/max, notes, dropped) and a
// table of its steps with a note or evaluation (with `every_step`, all of them).
std::string GameDebugTable(const v1::GameDebug& debug, bool every_step);
// The Accounts service (accounts.cc): metropolis-admin's commands over gRPC.
int RunCreatePlayer(const std::vector<std::string>& args, const GetEnv& env);
int RunCreateBot(const std::vector<std::string>& args, const GetEnv& env);
int RunIdentities(const std::vector<std::string>& args, const GetEnv& env);
int RunIssueToken(const std::vector<std::string>& args, const GetEnv& env);
int RunTokens(const std::vector<std::string>& args, const GetEnv& env);
int RunRevokeToken(const std::vector<std::string>& args, const GetEnv& env);
int RunCreateLadder(const std::vector<std::string>& args, const GetEnv& env);
int RunUpdateLadder(const std::vector<std::string>& args, const GetEnv& env);
int RunLadders(const std::vector<std::string>& args, const GetEnv& env);
int RunCreateSeason(const std::vector<std::string>& args, const GetEnv& env);
// Their lines of --help, which metropolis-admin shares: the same commands with the
// same arguments and output, on the tables rather than through the service.
// update-ladder is metropolisctl's alone, between the two parts.
inline constexpr std::string_view kAccountsHelp =
    "  create-player NAME              create a player (a person)\n"
    "  create-bot NAME --owner PLAYER  create a bot owned by a player\n"
    "  identities                      list players and bots\n"
    "  issue-token NAME [--label L] [--admin]\n"
    "                                  issue an API token; it is printed once and never again\n"
    "  tokens NAME                     list an identity's tokens (never the tokens themselves)\n"
    "  revoke-token ID                 revoke a token; services refuse it within 30 s\n"
    "  create-ladder ID [flags]        create a ladder (see create-ladder --help)\n";
inline constexpr std::string_view kUpdateLadderHelp =
    "  update-ladder ID [flags]        change some of a ladder's settings\n";
inline constexpr std::string_view kSeasonsHelp =
    "  ladders                         list ladders, their settings and open seasons\n"
    "  create-season LADDER            open a ladder's next season, closing the open one\n";

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

// Accounts (accounts.cc). The JSON is metropolis-admin's, key for key: ids are
// numbers, an absent owner or revocation is null, -1 means never.
std::string JsonNumber(double v);  // the shortest text that reads back to v
// A whole text that is a number (a ladder's rating parameters); false for anything else.
bool ParseDouble(const std::string& text, double* out);
std::string IdentityJson(const v1::Identity& identity);
std::string IdentitiesJson(const v1::ListIdentitiesResponse& list);
std::string IdentitiesTable(const v1::ListIdentitiesResponse& list);
std::string CreatedIdentityText(const v1::Identity& identity);  // "created bot b (id 4), owned by alice"
std::string IssuedTokenJson(const v1::IssueTokenRequest& request, const v1::IssueTokenResponse& response);
std::string IssuedTokenText(const v1::IssueTokenRequest& request, const v1::IssueTokenResponse& response);
std::string TokensJson(const v1::ListTokensResponse& list);
std::string TokensTable(const v1::ListTokensResponse& list);
std::string LadderJson(const v1::Ladder& ladder);
std::string LaddersJson(const v1::ListLaddersResponse& list);
std::string LaddersTable(const v1::ListLaddersResponse& list);
std::string LadderText(const v1::Ladder& ladder);  // one setting a line
// create-ladder and update-ladder: the settings the flags give, and only those;
// false with *error naming the flag when one is not a number.
void AddLadderFlags(cli::Flags* flags);
bool BuildLadderSettings(const cli::Flags& flags, v1::LadderSettings* out, std::string* error);

}  // namespace metropolis::ctl
