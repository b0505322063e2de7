// What a game talks to: the open streams of its seats and spectators. The gRPC
// reactors implement these; unit tests use recording fakes. Send and Finish are
// called with the game's lock held, so they must only queue and return.
#pragma once

#include <grpcpp/support/status.h>

#include <memory>

#include "metropolis/v1/gamehost.pb.h"

namespace metropolis::gamehost {

class SeatStream {
 public:
  virtual ~SeatStream() = default;
  virtual void Send(std::shared_ptr<const v1::PlayUpdate> update) = 0;
  // Ends the stream with `status` after what was sent so far.
  virtual void Finish(const grpc::Status& status) = 0;
};

class SpectatorStream {
 public:
  virtual ~SpectatorStream() = default;
  virtual void Send(std::shared_ptr<const v1::SpectateUpdate> update) = 0;
  virtual void Finish(const grpc::Status& status) = 0;
};

}  // namespace metropolis::gamehost
