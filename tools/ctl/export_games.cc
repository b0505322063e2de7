// metropolisctl export-games: a ladder's or a tournament's finished games as
// JSON lines, page by page from Replays.ExportGames, resumable by cursor.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>

#include "metropolis/v1/replays.grpc.pb.h"
#include "tools/ctl/commands.h"

namespace metropolis::ctl {

namespace {

constexpr int64_t kMaxPage = 500;

}  // namespace

int RunExportGames(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("export-games", "--ladder ID | --tournament ID [flags]",
                   "Writes a ladder's or a tournament's finished games from the replays service (--host), oldest\n"
                   "first, as JSON lines: one game a line, each the engine's game record (export-game's).\n"
                   "Games hidden by their tournament (a duplicate set before its reveal) are left out.\n"
                   "Progress goes to stderr, and at the end the cursor of the last game written:\n"
                   "--cursor C resumes right after it, with every game stored since that sorts after it.");
  flags.Add({.name = "ladder", .value_name = "ID", .help = "the ladder's games (every season)"});
  flags.Add({.name = "tournament", .value_name = "ID", .help = "the tournament's games"});
  flags.Add({.name = "cursor", .value_name = "C", .help = "resume right after the game this cursor names"});
  flags.Add({.name = "limit", .value_name = "N", .help = "write at most N games (default: all)"});
  flags.Add({.name = "page-size", .value_name = "N", .help = "games per call, 1 to 500 (default 100)"});
  flags.Add({.name = "output",
             .value_name = "FILE",
             .help = "write to FILE rather than stdout: created anew, or appended to with --cursor"});
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  const std::string ladder = inv.flags.Get("ladder"), tournament = inv.flags.Get("tournament");
  if (ladder.empty() == tournament.empty()) return UsageError(inv.flags, "give one of --ladder and --tournament");
  int64_t limit = 0, page_size = 100;
  if (inv.flags.Has("limit") && !cli::ParseInt(inv.flags.Get("limit"), 1, int64_t(1) << 40, &limit))
    return UsageError(inv.flags, "--limit: '" + inv.flags.Get("limit") + "' is not a whole number of games above 0");
  if (inv.flags.Has("page-size") && !cli::ParseInt(inv.flags.Get("page-size"), 1, kMaxPage, &page_size))
    return UsageError(inv.flags, "--page-size: '" + inv.flags.Get("page-size") + "' is not a whole number in 1..500");
  std::string cursor = inv.flags.Get("cursor");

  std::ofstream file;
  std::ostream* out = &std::cout;
  if (inv.flags.Has("output")) {
    const std::string path = inv.flags.Get("output");
    file.open(path, cursor.empty() ? std::ios::trunc : std::ios::app);
    if (!file) return UsageError(inv.flags, "--output: cannot write '" + path + "'");
    out = &file;
  }

  const std::string name = "metropolisctl export-games: ";
  auto stub = v1::Replays::NewStub(MakeChannel(inv.global));
  int64_t written = 0;
  bool more = true;
  while (more && (limit == 0 || written < limit)) {
    grpc::ClientContext context;
    PrepareContext(inv.global, &context);
    v1::ExportGamesRequest request;
    request.set_ladder(ladder);
    request.set_tournament(tournament);
    request.set_cursor(cursor);
    request.set_page_size(uint32_t(limit ? std::min(page_size, limit - written) : page_size));
    v1::ExportGamesResponse response;
    if (grpc::Status s = stub->ExportGames(&context, request, &response); !s.ok()) {
      if (written > 0)
        std::cerr << name << "stopped after " << written << " games; resume with --cursor " << cursor << "\n";
      return RpcError(inv, "ExportGames", s);
    }
    for (const v1::ExportedGame& g : response.games()) *out << g.record_json() << "\n";
    out->flush();
    if (!*out) {
      std::cerr << name << "writing failed after " << written << " games; resume with --cursor " << cursor << "\n";
      return kExitRpcFailed;
    }
    // The cursor moves only once the page is written: a resume repeats nothing and skips nothing.
    written += response.games_size();
    if (!response.next_cursor().empty()) cursor = response.next_cursor();
    more = response.more();
    std::cerr << name << written << " games written\n";
  }
  if (more)
    std::cerr << name << "stopped at --limit " << limit << "; more follow: resume with --cursor " << cursor << "\n";
  else
    std::cerr << name << "done, " << written << " games written; later games: --cursor " << cursor << "\n";
  return kExitOk;
}

}  // namespace metropolis::ctl
