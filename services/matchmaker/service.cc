#include "services/matchmaker/service.h"

#include <chrono>

#include "lib/auth/roles.h"
#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"

namespace metropolis::matchmaker {
namespace {
constexpr int64_t kCancelCheckMs = 200;
}  // namespace

MatchmakerService::MatchmakerService(TicketStore* tickets, LadderSource* ladders, RatingSource* ratings,
                                     auth::Authenticator* auth, GameCreator* games, ServiceOptions options)
    : tickets_(tickets),
      ladders_(ladders),
      ratings_(ratings),
      auth_(auth),
      games_(games),
      options_(options),
      waiters_(tickets, {.beat_ms = options.poll_ms, .wake = options.wake_on_assign}) {}

grpc::Status MatchmakerService::Authenticate(const grpc::ServerContext& context, auth::Principal* out) {
  return auth_->Authenticate(services::BearerToken(context), out);
}

bool FindLadder(LadderSource* ladders, const std::string& id, LadderConfig* out) {
  for (LadderSource::Read read : {LadderSource::Read::kCached, LadderSource::Read::kFresh}) {
    for (LadderConfig& l : ladders->Ladders(read)) {
      if (l.id == id) {
        *out = std::move(l);
        return true;
      }
    }
  }
  return false;
}

bool MatchmakerService::FindLadder(const std::string& id, LadderConfig* out) {
  return matchmaker::FindLadder(ladders_, id, out);
}

bool MatchmakerService::GameOver(const TicketInfo& ticket) {
  if (!games_ || !options_.check_resumed_seats) return false;
  v1::GameInfo game;
  const grpc::Status s = games_->Lookup(ticket.host, ticket.game_id, &game);
  // NOT_FOUND: no host has the game any more (finished long ago, or lost).
  if (s.error_code() == grpc::StatusCode::NOT_FOUND) return true;
  // Cannot tell (the host is away): the seat goes out, and its host will say.
  if (!s.ok()) return false;
  return game.status() == v1::GAME_STATUS_FINISHED;
}

grpc::Status MatchmakerService::Enqueue(grpc::ServerContext* context, const v1::EnqueueRequest* request,
                                        grpc::ServerWriter<v1::EnqueueUpdate>* writer) {
  services::CallLogContext call(*context);
  auth::Principal who;
  if (grpc::Status s = Authenticate(*context, &who); !s.ok()) return s;
  if (who.identity_id == 0)
    return {grpc::StatusCode::PERMISSION_DENIED, "queueing needs a player's or a bot's API token"};
  LadderConfig ladder;
  if (!FindLadder(request->ladder(), &ladder))
    return {grpc::StatusCode::NOT_FOUND, "ladder " + services::Quoted(request->ladder()) + " does not exist"};
  const double rating = ratings_->Mu(ladder, who.identity_id);
  std::string id, existing;
  for (int attempt = 0;; ++attempt) {
    int64_t now = 0;
    bool created = false;
    if (grpc::Status s = tickets_->Now(&now); !s.ok()) return s;
    if (grpc::Status s = tickets_->Create(ladder.id, who.identity_id, who.name, rating, now, &id, &existing, &created);
        !s.ok())
      return s;
    if (created) {
      if (options_.metrics) options_.metrics->TicketQueued(ladder.id);
      services::LogInfo("queued",
                        {{"ticket", id}, {"ladder", ladder.id}, {"identity", std::to_string(who.identity_id)}});
      break;
    }
    // The identity's ticket is still active: a client whose stream dropped
    // (or whose matchmaker replica died) resumes it by queueing again on the
    // same ladder, keeping its place; another ladder is refused.
    TicketInfo info;
    bool found = false;
    if (grpc::Status s = tickets_->Now(&now); !s.ok()) return s;
    if (grpc::Status s = tickets_->Poll(existing, now, &info, &found); !s.ok()) return s;
    if (!found || info.ladder != ladder.id) {
      return {grpc::StatusCode::ALREADY_EXISTS, who.name + " already has ticket " + existing + " in the queue of " +
                                                    (info.ladder.empty() ? "another ladder" : info.ladder) +
                                                    " (one at a time; Cancel it first)"};
    }
    // An assigned ticket is resumed only while its game is not over: its
    // Delivered write may have been lost (a Redis failover), and the player
    // would be sent back to the game it has just finished.
    if (attempt == 0 && info.state == "assigned" && GameOver(info)) {
      bool spent = false;
      if (grpc::Status s = tickets_->Spend(existing, who.identity_id, info.game_id, &spent); !s.ok()) return s;
      services::LogInfo("seat not resumed: its game is over",
                        {{"ticket", existing}, {"ladder", ladder.id}, {"game", info.game_id}});
      continue;
    }
    id = existing;
    services::LogInfo("ticket resumed", {{"ticket", id}, {"ladder", ladder.id}});
    break;
  }
  int64_t last_sent = -1;
  uint32_t last_position = UINT32_MAX;
  // The ticket is read with every other waiting stream's, and at once when it is
  // assigned (waiters.h); this stream only waits for the readings.
  std::unique_ptr<TicketWaiters::Watch> watch = waiters_.Add(id);
  for (;;) {
    if (context->IsCancelled()) {
      std::string state;
      bool cancelled = false;
      // Should the store not answer, the ticket expires without heartbeats.
      tickets_->Cancel(id, &state, &cancelled);
      return {grpc::StatusCode::CANCELLED, "the client left the queue"};
    }
    TicketReading reading;
    // Nothing tells a synchronous handler that its client left: it looks again
    // this often (no call to the store).
    if (!watch->Next(std::chrono::milliseconds(kCancelCheckMs), &reading)) continue;
    if (!reading.status.ok()) return reading.status;
    if (!reading.found) return {grpc::StatusCode::ABORTED, "ticket " + id + " disappeared"};
    const TicketInfo& info = reading.info;
    const int64_t now = reading.now_ms;
    if (info.state == "assigned") {
      // Its heartbeats stop as soon as its seat is read, as a polling stream's
      // did: a ticket a lost write puts back in the queue (a Redis failover)
      // must look abandoned to the claims (docs/FAILURES.md, "Redis failover").
      watch.reset();
      v1::EnqueueUpdate update;
      v1::Assignment* a = update.mutable_assignment();
      a->set_ticket_id(id);
      a->set_game_id(info.game_id);
      a->set_host(info.host);
      a->set_seat_token(info.seat_token);
      a->set_seat(uint32_t(info.seat));
      a->set_chance_commitment(info.chance_commitment);
      // Only a help for when the game's host dies: without the hosts (the store
      // did not answer) the seat goes out without it.
      std::vector<HostInfo> hosts;
      if (tickets_->Hosts(&hosts).ok())
        for (const HostInfo& h : hosts)
          if (h.address != info.host) a->add_other_hosts(h.address);
      call.SetGame(info.game_id);
      if (!writer->Write(update)) {
        // Its next Enqueue resumes the ticket and gets this seat.
        return {grpc::StatusCode::CANCELLED, "the stream broke before the seat was sent"};
      }
      services::LogInfo("seat sent", {{"ticket", id}, {"ladder", ladder.id}, {"seat", std::to_string(info.seat)}});
      // Should the store not answer, the identity's next Enqueue within a couple
      // of minutes gets this seat again.
      tickets_->Delivered(id, who.identity_id);
      return grpc::Status::OK;
    }
    if (info.state == "cancelled" || info.state == "expired")
      return {grpc::StatusCode::ABORTED, "ticket " + id + " was " + info.state};
    if (info.state == "queued" &&
        (uint32_t(info.position) != last_position || last_sent < 0 || now - last_sent >= options_.progress_every_ms)) {
      v1::EnqueueUpdate update;
      v1::Queued* q = update.mutable_queued();
      q->set_ticket_id(id);
      q->set_position(uint32_t(info.position));
      q->set_queue_size(uint32_t(info.queue_size));
      q->set_waited_ms(uint64_t(std::max<int64_t>(0, now - info.enqueued_ms)));
      q->set_rating(info.rating);
      if (!writer->Write(update)) {
        std::string state;
        bool cancelled = false;
        tickets_->Cancel(id, &state, &cancelled);  // or it expires without heartbeats
        return {grpc::StatusCode::CANCELLED, "the stream broke"};
      }
      last_sent = now;
      last_position = uint32_t(info.position);
    }
  }
}

grpc::Status MatchmakerService::Cancel(grpc::ServerContext* context, const v1::CancelRequest*,
                                       v1::CancelResponse* response) {
  services::CallLogContext call(*context);
  auth::Principal who;
  if (grpc::Status s = Authenticate(*context, &who); !s.ok()) return s;
  if (who.identity_id == 0)
    return {grpc::StatusCode::PERMISSION_DENIED, "cancelling needs a player's or a bot's token"};
  std::string id, state;
  bool cancelled = false;
  if (grpc::Status s = tickets_->ActiveTicket(who.identity_id, &id); !s.ok()) return s;
  if (id.empty()) return {grpc::StatusCode::NOT_FOUND, who.name + " has no ticket in a queue"};
  if (grpc::Status s = tickets_->Cancel(id, &state, &cancelled); !s.ok()) return s;
  if (!cancelled)
    return {grpc::StatusCode::FAILED_PRECONDITION, "ticket " + id + " is " + state + ", no longer queued"};
  response->set_ticket_id(id);
  return grpc::Status::OK;
}

grpc::Status MatchmakerService::GetQueue(grpc::ServerContext* context, const v1::GetQueueRequest* request,
                                         v1::QueueStatus* response) {
  services::CallLogContext call(*context);
  auth::Principal who;
  if (grpc::Status s = Authenticate(*context, &who); !s.ok()) return s;
  LadderConfig ladder;
  if (!FindLadder(request->ladder(), &ladder))
    return {grpc::StatusCode::NOT_FOUND, "ladder " + services::Quoted(request->ladder()) + " does not exist"};
  int64_t now = 0;
  std::vector<Ticket> queue;
  std::vector<HostInfo> hosts;
  if (grpc::Status s = tickets_->Now(&now); !s.ok()) return s;
  if (grpc::Status s = tickets_->Queue(ladder.id, &queue); !s.ok()) return s;
  if (grpc::Status s = tickets_->Hosts(&hosts); !s.ok()) return s;
  response->set_ladder(ladder.id);
  response->set_queued(uint32_t(queue.size()));
  int64_t oldest = now;
  for (const Ticket& t : queue) oldest = std::min(oldest, t.enqueued_ms);
  response->set_longest_wait_ms(uint64_t(now - oldest));
  for (const HostInfo& h : hosts) {
    v1::HostStatus* s = response->add_hosts();
    s->set_address(h.address);
    s->set_capacity(uint32_t(h.capacity));
    s->set_live(uint32_t(h.live));
    s->set_seen_ms_ago(uint64_t(std::max<int64_t>(0, now - h.seen_ms)));
  }
  return grpc::Status::OK;
}

grpc::Status MatchmakerService::RegisterHost(grpc::ServerContext* context, const v1::RegisterHostRequest* request,
                                             v1::RegisterHostResponse*) {
  services::CallLogContext call(*context);
  auth::Principal who;
  if (grpc::Status s = Authenticate(*context, &who); !s.ok()) return s;
  if (!auth::MayRegisterHost(who))
    return {grpc::StatusCode::PERMISSION_DENIED,
            "registering a host needs the game hosts' service token (an administrator's token is not one)"};
  const std::string& address = request->address();
  if (address.empty() || address.size() > 200 || address.find(':') == std::string::npos)
    return {grpc::StatusCode::INVALID_ARGUMENT, "address: host:port, at most 200 characters"};
  if (request->capacity() == 0) return {grpc::StatusCode::INVALID_ARGUMENT, "capacity: at least 1"};
  int64_t now = 0;
  if (grpc::Status s = tickets_->Now(&now); !s.ok()) return s;
  return tickets_->HostHeartbeat({address, request->capacity(), request->live(), now});
}

}  // namespace metropolis::matchmaker
