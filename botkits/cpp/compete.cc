#include "botkits/cpp/compete.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "botkits/cpp/ladder.h"
#include "lib/common/credentials.h"
#include "metropolis/v1/tournaments.grpc.pb.h"

namespace metropolis::botkit {

grpc::Status Compete(const CompeteOptions& options, const std::function<bool(const v1::Assignment&)>& on_seat,
                     const std::function<void(const std::string&)>& on_retry) {
  const std::vector<std::string> replicas = SplitAddresses(options.matchmaker);
  if (replicas.empty()) return {grpc::StatusCode::INVALID_ARGUMENT, "no matchmaker address"};
  int backoff_ms = 250;
  for (size_t attempt = 0;; ++attempt) {
    const std::string& address = replicas[attempt % replicas.size()];
    auto stub = v1::Tournaments::NewStub(services::Dial(address));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + options.api_token);
    v1::CompeteRequest request;
    request.set_capacity(uint32_t(options.capacity));
    auto reader = stub->Compete(&context, request);
    v1::CompeteUpdate update;
    bool stop = false, heard = false;
    while (!stop && reader->Read(&update)) {
      heard = true;
      if (update.has_assignment()) stop = !on_seat(update.assignment());
    }
    if (stop) {
      context.TryCancel();
      reader->Finish();
      return grpc::Status::OK;
    }
    const grpc::Status status = reader->Finish();
    if (!Retryable(status) && !status.ok()) return status;
    // A stream that worked for a while starts the backoff afresh.
    if (heard) backoff_ms = 250;
    if (on_retry) on_retry(address + ": " + (status.ok() ? std::string("the stream ended") : status.error_message()));
    std::this_thread::sleep_for(std::chrono::milliseconds(backoff_ms));
    backoff_ms = std::min(backoff_ms * 2, 4000);
  }
}

}  // namespace metropolis::botkit
