#include "services/gateway/queue.h"

#include <thread>

#include "lib/common/log.h"
#include "services/gateway/backends.h"

namespace metropolis::gateway {
namespace {

bool Fail(ApiError* error, ApiError e) {
  *error = std::move(e);
  return false;
}

Json OrNull(int64_t v) { return v < 0 ? Json(nullptr) : Json(v); }
Json OrNull(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

}  // namespace

Json QueueStateToJson(const QueueState& q) {
  const bool matched = q.state == "matched";
  return {{"state", q.state},
          {"ladder", OrNull(q.ladder)},
          {"waited_ms", q.state == "none" && q.ladder.empty() ? Json(nullptr) : Json(q.waited_ms)},
          {"queue_size", OrNull(q.queue_size)},
          {"position", OrNull(q.position)},
          {"game_id", matched ? Json(q.game_id) : Json(nullptr)},
          {"seat", matched ? Json(q.seat) : Json(nullptr)},
          {"error", OrNull(q.error)}};
}

QueueHub::~QueueHub() {
  std::unique_lock lock(mutex_);
  for (auto& [id, ticket] : tickets_)
    if (ticket->context) ticket->context->TryCancel();
  changed_.wait(lock, [&] { return running_ == 0; });
}

bool QueueHub::Join(const Person& person, const std::string& ladder, QueueState* out, ApiError* error) {
  if (!ValidLadderId(ladder))
    return Fail(error, BadParameter("ladder",
                                    "'" + ladder.substr(0, 80) + "' is not a ladder id (^[a-z0-9][a-z0-9_-]{0,63}$)"));
  if (!backends_->matchmaker())
    return Fail(error, MakeError(503, "UNAVAILABLE", "matchmaker: the gateway runs without --matchmaker"));
  auto ticket = std::make_shared<Ticket>();
  ticket->state.state = "waiting";
  ticket->state.ladder = ladder;
  ticket->state.started_unix_ms = clock_->UnixMillis();
  ticket->context = std::make_shared<grpc::ClientContext>();
  {
    // Claimed before the token is issued, so that two requests at once make
    // one ticket, not two streams of which one nobody could cancel.
    std::lock_guard lock(mutex_);
    auto it = tickets_.find(person.id);
    if (it != tickets_.end() && it->second->state.state == "waiting")
      return Fail(error, MakeError(409, "ALREADY_EXISTS",
                                   "already waiting in the queue of ladder '" + it->second->state.ladder +
                                       "' (DELETE /api/v1/queue leaves it)"));
    tickets_[person.id] = ticket;
  }
  int64_t token_id = 0;
  std::string token;
  const grpc::Status s = people_->IssueToken(person.id, "web queue", &token_id, &token);
  std::unique_lock lock(mutex_);
  if (!s.ok()) {
    ticket->state.state = "none";
    ticket->state.error = "the queue's token could not be issued: " + s.error_message();
    return Fail(error, StoreError(s));
  }
  // No deadline: a queue may take longer than any call.
  ticket->context->AddMetadata("authorization", "Bearer " + token);
  ticket->token = token;
  ticket->token_id = token_id;
  ++running_;
  std::thread(&QueueHub::Run, this, person, ticket).detach();
  // The first word says whether the ticket exists (an unknown ladder, a second
  // ticket of the same person from another gateway, a matchmaker down).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(backends_->options().timeout_ms);
  if (!changed_.wait_until(lock, deadline, [&] { return ticket->first_word; })) {
    ticket->context->TryCancel();
    ApiError e = MakeError(503, "UNAVAILABLE", "matchmaker: no answer in time");
    e.backend = "matchmaker";
    return Fail(error, e);
  }
  if (!ticket->failure.message.empty()) return Fail(error, ticket->failure);
  *out = ticket->state;
  return true;
}

QueueState QueueHub::Get(int64_t identity_id) {
  std::lock_guard lock(mutex_);
  auto it = tickets_.find(identity_id);
  if (it == tickets_.end()) return {};
  QueueState q = it->second->state;
  if (q.state == "waiting") q.waited_ms = clock_->UnixMillis() - q.started_unix_ms;
  return q;
}

void QueueHub::EndMatch(int64_t identity_id, const std::string& game_id) {
  std::lock_guard lock(mutex_);
  auto it = tickets_.find(identity_id);
  if (it == tickets_.end() || it->second->state.state != "matched" || it->second->state.game_id != game_id) return;
  QueueState& q = it->second->state;
  q.state = "none";
  q.game_id.clear();
  q.seat = -1;
  q.error.clear();
}

bool QueueHub::Leave(const Person& person, ApiError* error) {
  std::shared_ptr<Ticket> ticket;
  {
    std::lock_guard lock(mutex_);
    auto it = tickets_.find(person.id);
    if (it != tickets_.end() && it->second->state.state == "waiting") ticket = it->second;
  }
  if (!ticket) return Fail(error, MakeError(409, "FAILED_PRECONDITION", "not waiting in a queue"));
  // Cancel first: the matchmaker refuses it for a ticket it is seating, and
  // then the seat is on its way.
  auto context = backends_->ContextWithToken(ticket->token);
  v1::CancelResponse response;
  const grpc::Status s = backends_->matchmaker()->Cancel(context.get(), v1::CancelRequest(), &response);
  if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION)
    return Fail(error, MakeError(409, "FAILED_PRECONDITION", "too late to leave: the queue is seating you"));
  // Whatever the matchmaker said, hanging up takes the ticket out too.
  std::lock_guard lock(mutex_);
  ticket->state.state = "none";
  ticket->state.error.clear();
  ticket->context->TryCancel();
  return true;
}

void QueueHub::Run(Person person, std::shared_ptr<Ticket> ticket) {
  v1::EnqueueRequest request;
  request.set_ladder(ticket->state.ladder);
  auto reader = backends_->matchmaker()->Enqueue(ticket->context.get(), request);
  v1::EnqueueUpdate update;
  while (reader->Read(&update)) {
    if (update.has_queued()) {
      std::lock_guard lock(mutex_);
      const v1::Queued& q = update.queued();
      ticket->state.queue_size = q.queue_size();
      ticket->state.position = q.position();
      ticket->state.waited_ms = int64_t(q.waited_ms());
      ticket->first_word = true;
      changed_.notify_all();
    } else if (update.has_assignment()) {
      const v1::Assignment& a = update.assignment();
      const HeldSeat seat{a.game_id(), a.host(), a.seat_token(), int(a.seat())};
      const grpc::Status saved = people_->SaveSeat(person.id, seat);
      std::lock_guard lock(mutex_);
      if (saved.ok()) {
        ticket->state.state = "matched";
        ticket->state.game_id = a.game_id();
        ticket->state.seat = int(a.seat());
        ticket->state.waited_ms = clock_->UnixMillis() - ticket->state.started_unix_ms;
      } else {
        // The seat is the person's, but without its token nobody can play it:
        // the host's fallback bot will.
        services::LogError("seat not saved", {{"game", a.game_id()}, {"error", saved.error_message()}});
        ticket->state.state = "none";
        ticket->state.error = "matched to game " + a.game_id() + ", but its seat could not be kept";
      }
      ticket->first_word = true;
      changed_.notify_all();
    }
  }
  const grpc::Status status = reader->Finish();
  people_->RevokeToken(person.id, ticket->token_id);
  std::lock_guard lock(mutex_);
  if (!ticket->first_word)
    ticket->failure = BackendError(
        status.ok() ? grpc::Status(grpc::StatusCode::UNAVAILABLE, "the queue ended at once") : status, "matchmaker");
  if (ticket->state.state == "waiting") {
    ticket->state.state = "none";
    ticket->state.error = status.ok() ? "the queue ended without a seat" : "matchmaker: " + status.error_message();
  }
  ticket->first_word = true;
  --running_;
  changed_.notify_all();
}

}  // namespace metropolis::gateway
