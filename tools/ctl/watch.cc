// metropolisctl watch: follows a game through Spectate and prints what
// happens, one line per event, until the game is over.

#include <algorithm>
#include <iostream>

#include "engine/event.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/gamehost.grpc.pb.h"
#include "tools/ctl/commands.h"

namespace metropolis::ctl {
namespace {

// A game moved to another host is followed there, but a chain of redirects
// that never ends is not.
constexpr int kMaxRedirects = 3;

}  // namespace

std::vector<std::string> SpectateLines(const v1::SpectateUpdate& update) {
  switch (update.msg_case()) {
    case v1::SpectateUpdate::kWelcome: {
      const v1::Welcome& w = update.welcome();
      std::string names;
      for (int i = 0; i < w.players_size(); ++i) names += (i ? ", " : "") + w.players(i).name();
      return {"game " + w.game_id() + " at step " + std::to_string(w.step()) + ": " + names};
    }
    case v1::SpectateUpdate::kEvents: {
      // A batch (a replay from the start, or a step with chance after it) may
      // span several actions, and Events.step is the step after the last one.
      // Every applied action emits one EVENT_ACTION first, so counting them
      // back gives each line the step its action made.
      const auto& events = update.events().events();
      int64_t actions = 0;
      for (const v1::Event& e : events) actions += e.type() == v1::EVENT_ACTION;
      int64_t step = int64_t(update.events().step()) - actions;
      std::vector<std::string> lines;
      for (const v1::Event& e : events) {
        if (e.type() == v1::EVENT_ACTION) ++step;
        Event event;
        std::string error;
        // An event this build cannot read still gets a line saying so.
        const std::string text =
            protocol::EventFromProto(e, &event, &error) ? EventToString(event) : "(unreadable event: " + error + ")";
        lines.push_back("step " + std::to_string(std::max<int64_t>(step, 0)) + ": " + text);
      }
      return lines;
    }
    case v1::SpectateUpdate::kGameOver:
      return {"game over: " + ResultText(update.game_over().result())};
    case v1::SpectateUpdate::kRedirect:
      return {"game " + update.redirect().game_id() + " runs on " + update.redirect().host() + ": following"};
    case v1::SpectateUpdate::kPaused:
      return {update.paused().paused() ? "game paused: " + update.paused().reason() : "game goes on after a pause"};
    case v1::SpectateUpdate::kView:  // the position after each step: too much for a line
    case v1::SpectateUpdate::kViewDelta:
    case v1::SpectateUpdate::MSG_NOT_SET:
      break;
  }
  return {};
}

int RunWatch(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("watch", "ID [flags]",
                   "Follows a game (Spectate) and prints its public events, one line each, until the game is over;\n"
                   "with --json, every update as one JSON line. Needs an administrator, spectator or seat token.");
  flags.Add({.name = "from-start", .value_name = "", .help = "replay every event from the first action first"});
  flags.AllowPositionals();
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  if (inv.flags.positionals().size() != 1) return UsageError(inv.flags, "expected one game id");

  v1::SpectateRequest request;
  request.set_game_id(inv.flags.positionals()[0]);
  request.set_from_start(inv.flags.Has("from-start"));
  std::string host = inv.global.host;
  for (int redirects = 0; redirects <= kMaxRedirects; ++redirects) {
    auto stub = v1::GameHost::NewStub(MakeChannel(inv.global, host));
    grpc::ClientContext context;
    // A game lasts as long as it lasts: only an explicit --timeout-ms bounds it.
    PrepareContext(inv.global, &context, Deadline::kOnlyIfGiven);
    auto reader = stub->Spectate(&context, request);
    v1::SpectateUpdate update;
    bool game_over = false;
    std::string redirect;
    while (!game_over && redirect.empty() && reader->Read(&update)) {
      if (inv.global.json) {
        std::cout << MessageJson(update) << "\n";
      } else {
        for (const std::string& line : SpectateLines(update)) std::cout << line << "\n";
      }
      std::cout.flush();
      game_over = update.has_game_over();
      if (update.has_redirect()) redirect = update.redirect().host();
    }
    if (game_over || !redirect.empty()) {
      // All we wanted has come; the host ends the stream, or we hang up.
      context.TryCancel();
      reader->Finish().IgnoreError();
      if (game_over) return kExitOk;
      host = redirect;
      continue;
    }
    grpc::Status status = reader->Finish();
    if (status.ok()) status = grpc::Status(grpc::StatusCode::UNAVAILABLE, "the stream ended before the game was over");
    return RpcError(inv, "Spectate", status);
  }
  return RpcError(inv, "Spectate",
                  grpc::Status(grpc::StatusCode::ABORTED, "redirected more than " + std::to_string(kMaxRedirects) +
                                                              " times (last to " + host + ")"));
}

}  // namespace metropolis::ctl
