// People in a ladder's queue: the gateway holds the matchmaker's Enqueue
// stream on the person's behalf, as any client does (metropolisctl enqueue),
// and keeps the assignment — host and seat token — to itself: the browser
// polls GET /api/v1/queue and then plays the seat through the gateway.
//
// The matchmaker knows who queues by an API token of theirs. A person has no
// API token of their own, so the gateway has the People service issue one for
// each queue (label "web queue", never an administrator's) and revokes it when
// the stream ends: it never leaves the gateway's memory.
#pragma once

#include <grpcpp/client_context.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "services/gateway/json.h"
#include "services/gateway/params.h"
#include "services/gateway/people.h"

namespace metropolis::gateway {

class Backends;

// A person's queue as GET /api/v1/queue shows it.
struct QueueState {
  std::string state = "none";  // "waiting", "matched" or "none"
  std::string ladder;
  int64_t started_unix_ms = 0;
  int64_t waited_ms = 0;
  int64_t queue_size = -1;  // -1 until the matchmaker said
  int64_t position = -1;
  std::string game_id;  // when matched
  int seat = -1;
  std::string error;  // why the last queue ended without a seat
};
Json QueueStateToJson(const QueueState& q);

class QueueHub {
 public:
  // Waiting times are on `clock`'s wall time (UnixMillis).
  QueueHub(Backends* backends, PeopleStore* people, const services::Clock* clock)
      : backends_(backends), people_(people), clock_(clock) {}
  ~QueueHub();  // cancels every queue and waits for their threads

  // Queues the person on `ladder` and waits for the matchmaker's first word:
  // 400 a bad ladder id, 404 an unknown ladder, 409 already waiting, 503 no
  // matchmaker.
  bool Join(const Person& person, const std::string& ladder, QueueState* out, ApiError* error);
  QueueState Get(int64_t identity_id);
  // The person's match to `game_id` is over: their queue reads "none" again
  // (its ladder kept, for the lobby to offer). Nothing for another game.
  void EndMatch(int64_t identity_id, const std::string& game_id);
  // Leaves the queue: 409 when not waiting (or already being seated).
  bool Leave(const Person& person, ApiError* error);

 private:
  struct Ticket {
    QueueState state;
    std::shared_ptr<grpc::ClientContext> context;
    std::string token;
    int64_t token_id = 0;
    bool first_word = false;  // the matchmaker answered (an update, or the end)
    ApiError failure;         // how the stream ended before its first update
  };
  void Run(Person person, std::shared_ptr<Ticket> ticket);

  Backends* const backends_;
  PeopleStore* const people_;
  const services::Clock* const clock_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<int64_t, std::shared_ptr<Ticket>> tickets_;  // by identity id: the latest
  size_t running_ = 0;
};

}  // namespace metropolis::gateway
