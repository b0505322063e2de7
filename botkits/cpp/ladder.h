// Playing on a ladder: queue at the matchmaker with the bot's API token and wait
// for a seat. The seat then plays like any other (client.h).
#pragma once

#include <grpcpp/support/status.h>

#include <functional>
#include <string>
#include <vector>

#include "metropolis/v1/matchmaker.pb.h"

namespace metropolis::botkit {

struct LadderOptions {
  std::string matchmaker;  // HOST:PORT, or several "A,B": replicas tried in turn when one fails
  std::string ladder;
  std::string api_token;  // the bot's own API token (metropolis-admin issue-token)
};

// Enqueues and reads the stream until the assignment; `on_queued` sees each
// progress update. The stream is the ticket's heartbeat, so the ticket leaves
// the queue if this process dies. When the stream fails (the replica died or is
// unreachable) it queues again, on the next replica of the list, with backoff:
// the matchmaker resumes the same ticket, so the place in the queue is kept.
// `on_retry` (may be empty) hears about each failure.
// "A,B" → {"A", "B"}: a list of matchmaker replicas.
std::vector<std::string> SplitAddresses(const std::string& list);
// What a failed replica or connection looks like (worth retrying on another);
// anything else (a bad token, an unknown ladder) is final.
bool Retryable(const grpc::Status& status);

grpc::Status WaitForSeat(const LadderOptions& options, const std::function<void(const v1::Queued&)>& on_queued,
                         v1::Assignment* out, const std::function<void(const std::string&)>& on_retry = {});

}  // namespace metropolis::botkit
