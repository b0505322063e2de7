// metropolisctl game-debug: a stored game's debug channel (Replays.GetDebug) —
// what a bot said about its decisions and how long it thought — for the bot's
// author, with the bot's own token (or an administrator's).
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "metropolis/v1/replays.grpc.pb.h"
#include "tools/ctl/commands.h"

namespace metropolis::ctl {

std::string GameDebugTable(const v1::GameDebug& debug, bool every_step) {
  std::string out;
  for (const v1::SeatDebug& seat : debug.seats()) {
    std::vector<uint32_t> think;
    int notes = 0;
    for (const v1::StepDebug& s : seat.steps()) {
      think.push_back(s.think_ms());
      notes += !s.note().empty() || s.has_evaluation();
    }
    std::sort(think.begin(), think.end());
    const auto at = [&](double q) { return think.empty() ? 0u : think[size_t(q * double(think.size() - 1))]; };
    out += "seat " + std::to_string(seat.seat()) + " (identity " + std::to_string(seat.identity_id()) +
           "): " + std::to_string(seat.steps_size()) + " answers, think median " + std::to_string(at(0.5)) +
           " ms, p90 " + std::to_string(at(0.9)) + " ms, max " + std::to_string(think.empty() ? 0u : think.back()) +
           " ms; " + std::to_string(notes) + " notes, " + std::to_string(seat.notes_dropped()) + " dropped";
    if (seat.recorded_from_step() > 0)
      out += "; recorded from step " + std::to_string(seat.recorded_from_step()) + " (a host took the game over)";
    out += "\n";
    std::vector<std::vector<std::string>> rows = {{"step", "think ms", "evaluation", "note"}};
    for (const v1::StepDebug& s : seat.steps()) {
      if (!every_step && s.note().empty() && !s.has_evaluation()) continue;
      char evaluation[32] = "";
      if (s.has_evaluation()) std::snprintf(evaluation, sizeof evaluation, "%.4g", s.evaluation());
      rows.push_back({std::to_string(s.step()), std::to_string(s.think_ms()), evaluation, s.note()});
    }
    if (rows.size() > 1) out += FormatTable(rows);
    out += "\n";
  }
  return out;
}

int RunGameDebug(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("game-debug", "ID [flags]",
                   "Prints a stored game's debug channel from the replays service (--host): per seat you may read\n"
                   "(your token's own; an administrator's: every seat, or --identity's), its think times and the\n"
                   "notes and evaluations its bot sent (docs/GAMEHOST.md, \"Debug notes\").");
  flags.AllowPositionals();
  flags.Add({.name = "identity", .value_name = "N", .help = "only the seats of this identity"});
  flags.Add({.name = "every-step", .value_name = "", .help = "list every answered step, not only those with a note"});
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  if (inv.flags.positionals().size() != 1) return UsageError(inv.flags, "expected one game id");
  int64_t identity = 0;
  int code = 0;
  if (!IntFlag(inv, "identity", 1, INT64_MAX, &identity, &code)) return code;
  auto stub = v1::Replays::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  PrepareContext(inv.global, &context);
  v1::GetDebugRequest request;
  request.set_game_id(inv.flags.positionals()[0]);
  if (identity > 0) request.add_identities(identity);
  v1::GameDebug response;
  if (grpc::Status s = stub->GetDebug(&context, request, &response); !s.ok()) return RpcError(inv, "GetDebug", s);
  std::cout << (inv.global.json ? MessageJson(response) + "\n" : GameDebugTable(response, inv.flags.Has("every-step")));
  return kExitOk;
}

}  // namespace metropolis::ctl
