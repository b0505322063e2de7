#include "botkits/cpp/ladder.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "lib/common/credentials.h"
#include "metropolis/v1/matchmaker.grpc.pb.h"

namespace metropolis::botkit {

namespace {

grpc::Status QueueOnce(const std::string& address, const LadderOptions& options,
                       const std::function<void(const v1::Queued&)>& on_queued, v1::Assignment* out) {
  auto stub = v1::Matchmaker::NewStub(services::Dial(address));
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + options.api_token);
  v1::EnqueueRequest request;
  request.set_ladder(options.ladder);
  auto reader = stub->Enqueue(&context, request);
  v1::EnqueueUpdate update;
  bool assigned = false;
  while (reader->Read(&update)) {
    if (update.has_assignment()) {
      *out = update.assignment();
      assigned = true;
    } else if (update.has_queued() && on_queued) {
      on_queued(update.queued());
    }
  }
  grpc::Status status = reader->Finish();
  if (status.ok() && !assigned) return {grpc::StatusCode::UNAVAILABLE, "the queue ended without an assignment"};
  return status;
}

}  // namespace

std::vector<std::string> SplitAddresses(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

bool Retryable(const grpc::Status& status) {
  const auto code = status.error_code();
  return code == grpc::StatusCode::UNAVAILABLE || code == grpc::StatusCode::DEADLINE_EXCEEDED ||
         code == grpc::StatusCode::CANCELLED || code == grpc::StatusCode::ABORTED;
}

grpc::Status WaitForSeat(const LadderOptions& options, const std::function<void(const v1::Queued&)>& on_queued,
                         v1::Assignment* out, const std::function<void(const std::string&)>& on_retry) {
  const std::vector<std::string> replicas = SplitAddresses(options.matchmaker);
  if (replicas.empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "no matchmaker address"};
  constexpr int kAttempts = 12;
  int backoff_ms = 250;
  grpc::Status status;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const std::string& address = replicas[size_t(attempt) % replicas.size()];
    status = QueueOnce(address, options, on_queued, out);
    if (status.ok()) return status;
    if (!Retryable(status)) return status;
    if (on_retry) on_retry(address + ": " + status.error_message());
    std::this_thread::sleep_for(std::chrono::milliseconds(backoff_ms));
    backoff_ms = std::min(backoff_ms * 2, 4000);
  }
  return status;
}

}  // namespace metropolis::botkit
