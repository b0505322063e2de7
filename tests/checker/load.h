// Where the checker's inputs come from: PostgreSQL (the stored games, their seats
// and replays, the rating decisions, history and ratings), the bots' record files
// (one JSON line per finished game, metropolis-bot --record and the example bots'
// --record) and the game hosts' logs ("game created", "game void").
#pragma once

#include <string>
#include <vector>

#include "tests/checker/check.h"

namespace metropolis::checker {

// Reads every stored game (of `ladder` when not empty) with what ratings decided
// about it. False with *error when the database cannot be read or a row is broken
// (a broken row is itself worth failing for).
bool LoadDatabase(const std::string& conninfo, const std::string& ladder, Inputs* out, std::string* error);

// Appends the records of each file; counts them per file into *per_file. A line
// that is not a record fails with the file and line named.
bool LoadRecords(const std::vector<std::string>& files, Inputs* out, std::map<std::string, int>* per_file,
                 std::string* error);

// Reads the completed games a game host wrote to its data directory (DIR/*.json,
// one file per game: the engine's game record and the host's fields), for a host
// run without the other services. A file that does not parse fails, named.
bool LoadCompletedGames(const std::vector<std::string>& dirs, Inputs* out, std::string* error);

// Reads "game created" and "game void" lines (key=value logs) into created/voids.
bool LoadHostLogs(const std::vector<std::string>& files, Inputs* out, std::string* error);

}  // namespace metropolis::checker
