// enqueue: queue on a ladder as the token's identity and wait for a seat, the
// way a player's client does; prints the assignment to play with any client.
#include <unistd.h>

#include <iostream>

#include "metropolis/v1/matchmaker.grpc.pb.h"
#include "tools/ctl/commands.h"

namespace metropolis::ctl {

std::string QueuedLine(const v1::Queued& q) {
  return "queued on ticket " + q.ticket_id() + ": position " + std::to_string(q.position() + 1) + " of " +
         std::to_string(q.queue_size()) + ", waited " + std::to_string(q.waited_ms() / 1000) + " s (rating " +
         std::to_string(int(q.rating() + 0.5)) + ")";
}

int RunEnqueue(const std::vector<std::string>& args, const GetEnv& env) {
  cli::Flags flags("enqueue", "--ladder ID [flags]",
                   "Queues the token's identity (a player's or a bot's API token) on a ladder at the matchmaker\n"
                   "(--host) and waits for a seat, showing the position and the wait; then prints the game, its\n"
                   "host and the seat's token, to play with metropolis-bot or any client. Interrupting it leaves\n"
                   "the queue.");
  flags.Add({.name = "ladder", .value_name = "ID", .help = "the ladder"});
  Invocation inv{std::move(flags), {}};
  if (int code = ParseInvocation(args, env, &inv); code >= 0) return code;
  if (inv.flags.Get("ladder").empty()) return UsageError(inv.flags, "--ladder is required");
  auto stub = v1::Matchmaker::NewStub(MakeChannel(inv.global));
  grpc::ClientContext context;
  // The queue may take longer than any RPC deadline: no deadline unless asked.
  PrepareContext(inv.global, &context, Deadline::kOnlyIfGiven);
  v1::EnqueueRequest request;
  request.set_ladder(inv.flags.Get("ladder"));
  auto reader = stub->Enqueue(&context, request);
  const bool tty = isatty(STDOUT_FILENO) && !inv.global.json;
  v1::EnqueueUpdate update;
  bool assigned = false;
  while (reader->Read(&update)) {
    if (update.has_queued() && !inv.global.json) {
      if (tty)
        std::cout << "\r\033[K" << QueuedLine(update.queued()) << std::flush;
      else
        std::cout << QueuedLine(update.queued()) << std::endl;
    }
    if (update.has_assignment()) {
      assigned = true;
      const v1::Assignment& a = update.assignment();
      if (inv.global.json) {
        std::cout << MessageJson(a) << "\n";
      } else {
        std::cout << (tty ? "\n" : "") << "seated: game " << a.game_id() << ", seat " << a.seat() << ", host "
                  << a.host() << "\n"
                  << "play it: metropolis-bot --host " << a.host() << " --game " << a.game_id() << " --token "
                  << a.seat_token() << " --bot heuristic\n";
      }
    }
  }
  const grpc::Status status = reader->Finish();
  if (!status.ok()) return RpcError(inv, "Enqueue", status);
  if (!assigned) {
    std::cerr << "metropolisctl enqueue: the queue ended without a seat\n";
    return kExitRpcFailed;
  }
  return kExitOk;
}

}  // namespace metropolis::ctl
