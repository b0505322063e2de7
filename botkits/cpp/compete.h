// Taking part in tournaments: hold the matchmaker's Compete stream with the
// bot's API token and play every seat it sends (docs/TOURNAMENTS.md). The
// stream is the bot's availability: while it is open, the tournament scheduler
// may seat the bot, up to `capacity` games at once.
#pragma once

#include <grpcpp/support/status.h>

#include <functional>
#include <string>

#include "metropolis/v1/matchmaker.pb.h"

namespace metropolis::botkit {

struct CompeteOptions {
  std::string matchmaker;  // HOST:PORT, or several "A,B": replicas tried in turn when one fails
  std::string api_token;
  int capacity = 1;  // games at once
};

// Holds the stream and calls `on_seat` for each game, on the stream's thread
// (start the game elsewhere and return quickly). `on_seat` returns false to
// stop. When the stream fails (the replica died) it connects again, to the
// next replica, with backoff; a game sent meanwhile waits for it on the
// matchmaker. Returns OK once `on_seat` asked to stop, or the final error.
grpc::Status Compete(const CompeteOptions& options, const std::function<bool(const v1::Assignment&)>& on_seat,
                     const std::function<void(const std::string&)>& on_retry = {});

}  // namespace metropolis::botkit
