// metropolisctl's tournament commands (tournaments.cc), and the plain functions
// behind them that the tests check without a server.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "metropolis/v1/tournaments.pb.h"
#include "tools/ctl/ctl.h"

namespace metropolis::ctl {

int RunCreateTournament(const std::vector<std::string>& args, const GetEnv& env);
int RunTournaments(const std::vector<std::string>& args, const GetEnv& env);
int RunStandings(const std::vector<std::string>& args, const GetEnv& env);
int RunWatchTournament(const std::vector<std::string>& args, const GetEnv& env);
int RunTournamentGames(const std::vector<std::string>& args, const GetEnv& env);
int RunExportTournament(const std::vector<std::string>& args, const GetEnv& env);
int RunCancelTournament(const std::vector<std::string>& args, const GetEnv& env);
int RunJoinTournament(const std::vector<std::string>& args, const GetEnv& env);
int RunLeaveTournament(const std::vector<std::string>& args, const GetEnv& env);

// create-tournament's flags, and the request they describe. Entrants are a
// comma-separated list of identity ids or names; `ids_by_name` resolves names
// (an unknown name is an error naming it); --starts-in counts from `now_ms`.
// False with *error naming the flag.
cli::Flags CreateTournamentFlags();
bool BuildCreateTournamentRequest(const cli::Flags& flags, const std::map<std::string, int64_t>& ids_by_name,
                                  int64_t now_ms, v1::CreateTournamentRequest* out, std::string* error);
// "90s", "30m", "2h", "1d", "1500ms" as milliseconds; false for anything else.
bool ParseDurationMs(const std::string& text, int64_t* out);
// "2026-12-24T18:00:00Z" (seconds optional, 'T' or a space) as Unix ms; false
// for anything else, a time not in UTC included.
bool ParseUtcTimeMs(const std::string& text, int64_t* out);
// True when the list names an identity by name (so names must be looked up).
bool EntrantsNeedNames(const std::string& list);

// "round 2 of 3 · 14/20 games finished, 2 playing  [#########.....] 70 %"
std::string ProgressLine(const v1::Tournament& t);
// The standings as a table, with each mean score and its 95 % confidence
// interval drawn on a 0..1 scale: "|   [--*--]     |".
std::string StandingsTable(const v1::Tournament& t);
// Every pair of entrants compared over what both played (Tournament.pairs): the
// entrant ahead, the one behind, how many sets (duplicate) or games, the mean
// difference of their scores with its 95 % interval, whether it separates them,
// and the sequential test's verdict. Empty when the tournament has no pairs.
std::string PairsTable(const v1::Tournament& t);
// "|   [--*--]     |": `width` cells for 0..1, the interval in brackets and
// dashes, the mean as '*'.
std::string IntervalBar(double low, double mean, double high, int width);
// One CSV row per game (header first): number, round, set, rotation, state,
// game id, then per seat its entrant's name and place.
std::string TournamentGamesCsv(const v1::Tournament& t, const v1::ListTournamentGamesResponse& games);

}  // namespace metropolis::ctl
