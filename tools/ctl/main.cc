// metropolisctl: the operator's command line for Metropolis servers.

#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "tools/ctl/commands.h"
#include "tools/ctl/tournaments.h"

namespace {

using metropolis::ctl::kAccountsHelp, metropolis::ctl::kSeasonsHelp, metropolis::ctl::kUpdateLadderHelp;

const std::string kHelp =
    std::string(
        "usage: metropolisctl [global flags] COMMAND [flags]\n"
        "\n"
        "The operator's command line for Metropolis servers.\n"
        "\n"
        "commands:\n"
        "  health        check the host's health service; exit 0 only when SERVING\n"
        "  reflect       list the host's services through server reflection\n"
        "  create-game   create a game and print its id, host and seat tokens\n"
        "  get-game      print one game: status, seats, decisions, result\n"
        "  list-games    list the host's live games\n"
        "  watch         follow a game and print its events until it is over\n"
        "  leaderboard   a ladder's leaderboard (ratings service)\n"
        "  rating        one player's rating, rank and history (ratings service)\n"
        "  stored-games  completed games, newest first (replays service)\n"
        "  queue         a ladder's queue and the game hosts (matchmaker)\n"
        "  enqueue       queue on a ladder as the token's identity and wait for a seat (matchmaker)\n"
        "  export-game   a stored game as the engine's record, for metropolis-engine replay (replays service)\n"
        "  export-games  a ladder's or a tournament's games as JSON lines of records, resumable (replays service)\n"
        "  game-debug    a stored game's think times and bot notes, for the bot's author (replays service)\n"
        "\n"
        "accounts (the Accounts service, metropolis-accounts; an administrator's token):\n") +
    std::string(kAccountsHelp) + std::string(kUpdateLadderHelp) + std::string(kSeasonsHelp) +
    "\n"
    "tournaments (the Tournaments service, hosted by the matchmaker):\n"
    "  create-tournament ID --format F --entrants A,B,... | --starts-in 1h [--repeat 1d]\n"
    "                                  schedule a round-robin, swiss, duplicate or arena tournament, or open one\n"
    "                                  for registration until its start (administrator)\n"
    "  tournaments                     list tournaments\n"
    "  standings ID                    progress and standings with 95 % confidence intervals\n"
    "  watch-tournament ID             follow a tournament live until it ends\n"
    "  tournament-games ID             every game of the schedule, with places\n"
    "  export-tournament ID [--csv]    the tournament and its games, as JSON or CSV\n"
    "  cancel-tournament ID            stop scheduling its games (administrator)\n"
    "  join-tournament ID              enter a tournament that takes registrations (the token's identity)\n"
    "  leave-tournament ID             withdraw before its start\n"
    "\n"
    "global flags (also accepted after the command):\n"
    "  --host ADDR       the server, HOST:PORT, plaintext (env METROPOLIS_HOST; default 127.0.0.1:50051)\n"
    "  --token T         bearer token for the calls (env METROPOLIS_TOKEN)\n"
    "  --json            machine output: JSON on stdout\n"
    "  --timeout-ms N    deadline of each call (default 10000; watch: none unless given)\n"
    "\n"
    "exit status: 0 done, 1 an RPC failed (its status code and message are printed on stderr),\n"
    "2 bad flags or arguments, 3 (health) a service answered but is not SERVING.\n"
    "\n"
    "'metropolisctl COMMAND --help' describes a command's flags.\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace metropolis::ctl;
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string command, error;
  std::vector<std::string> global, rest;
  if (!SplitCommandLine(args, &command, &global, &rest, &error)) {
    std::cerr << "metropolisctl: " << error << "\n(see metropolisctl --help)\n";
    return kExitUsage;
  }
  if (command.empty() || command == "help") {
    const bool asked = command == "help" || (!global.empty() && global.back() == "--help");
    (asked ? std::cout : std::cerr) << kHelp;
    return asked ? kExitOk : kExitUsage;
  }
  // The command sees the global flags given before it as if given after it.
  std::vector<std::string> command_args = global;
  command_args.insert(command_args.end(), rest.begin(), rest.end());
  const GetEnv env = [](const char* name) -> const char* { return std::getenv(name); };

  if (command == "health") return RunHealth(command_args, env);
  if (command == "reflect") return RunReflect(command_args, env);
  if (command == "create-game") return RunCreateGame(command_args, env);
  if (command == "get-game") return RunGetGame(command_args, env);
  if (command == "list-games") return RunListGames(command_args, env);
  if (command == "watch") return RunWatch(command_args, env);
  if (command == "leaderboard") return RunLeaderboard(command_args, env);
  if (command == "rating") return RunRating(command_args, env);
  if (command == "stored-games") return RunStoredGames(command_args, env);
  if (command == "queue") return RunQueue(command_args, env);
  if (command == "enqueue") return RunEnqueue(command_args, env);
  if (command == "export-game") return RunExportGame(command_args, env);
  if (command == "export-games") return RunExportGames(command_args, env);
  if (command == "game-debug") return RunGameDebug(command_args, env);
  if (command == "create-player") return RunCreatePlayer(command_args, env);
  if (command == "create-bot") return RunCreateBot(command_args, env);
  if (command == "identities") return RunIdentities(command_args, env);
  if (command == "issue-token") return RunIssueToken(command_args, env);
  if (command == "tokens") return RunTokens(command_args, env);
  if (command == "revoke-token") return RunRevokeToken(command_args, env);
  if (command == "create-ladder") return RunCreateLadder(command_args, env);
  if (command == "update-ladder") return RunUpdateLadder(command_args, env);
  if (command == "ladders") return RunLadders(command_args, env);
  if (command == "create-season") return RunCreateSeason(command_args, env);
  if (command == "create-tournament") return RunCreateTournament(command_args, env);
  if (command == "tournaments") return RunTournaments(command_args, env);
  if (command == "standings") return RunStandings(command_args, env);
  if (command == "watch-tournament") return RunWatchTournament(command_args, env);
  if (command == "tournament-games") return RunTournamentGames(command_args, env);
  if (command == "export-tournament") return RunExportTournament(command_args, env);
  if (command == "cancel-tournament") return RunCancelTournament(command_args, env);
  if (command == "join-tournament") return RunJoinTournament(command_args, env);
  if (command == "leave-tournament") return RunLeaveTournament(command_args, env);
  std::cerr << "metropolisctl: unknown command '" << command << "'\n\n" << kHelp;
  return kExitUsage;
}
