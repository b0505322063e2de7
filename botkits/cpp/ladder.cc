#include "botkits/cpp/ladder.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include "metropolis/v1/matchmaker.grpc.pb.h"

namespace metropolis::botkit {

grpc::Status WaitForSeat(const LadderOptions& options, const std::function<void(const v1::Queued&)>& on_queued,
                         v1::Assignment* out) {
  auto stub = v1::Matchmaker::NewStub(grpc::CreateChannel(options.matchmaker, grpc::InsecureChannelCredentials()));
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
  if (status.ok() && !assigned) return {grpc::StatusCode::INTERNAL, "the queue ended without an assignment"};
  return status;
}

}  // namespace metropolis::botkit
