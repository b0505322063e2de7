#include "services/matchmaker/service.h"

#include <chrono>
#include <thread>

#include "lib/auth/roles.h"
#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"
#include "lib/storage/redis_status.h"

namespace metropolis::matchmaker {
namespace {

grpc::Status RedisDown(const std::exception& e) { return storage::RedisErrorStatus("ticket store", e); }

}  // namespace

MatchmakerService::MatchmakerService(TicketStore* tickets, LadderSource* ladders, RatingSource* ratings,
                                     auth::Authenticator* auth, GameCreator* games, ServiceOptions options)
    : tickets_(tickets), ladders_(ladders), ratings_(ratings), auth_(auth), games_(games), options_(options) {}

grpc::Status MatchmakerService::Authenticate(const grpc::ServerContext& context, auth::Principal* out) {
  return auth_->Authenticate(services::BearerToken(context), out);
}

bool MatchmakerService::FindLadder(const std::string& id, LadderConfig* out) {
  for (LadderSource::Read read : {LadderSource::Read::kCached, LadderSource::Read::kFresh}) {
    for (LadderConfig& l : ladders_->Ladders(read)) {
      if (l.id == id) {
        *out = std::move(l);
        return true;
      }
    }
  }
  return false;
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
  try {
    for (int attempt = 0;; ++attempt) {
      if (tickets_->Create(ladder.id, who.identity_id, who.name, rating, tickets_->Now(), &id, &existing)) {
        if (options_.metrics) options_.metrics->TicketQueued(ladder.id);
        services::LogInfo("queued",
                          {{"ticket", id}, {"ladder", ladder.id}, {"identity", std::to_string(who.identity_id)}});
        break;
      }
      // The identity's ticket is still active: a client whose stream dropped
      // (or whose matchmaker replica died) resumes it by queueing again on the
      // same ladder, keeping its place; another ladder is refused.
      TicketInfo info;
      if (!tickets_->Poll(existing, tickets_->Now(), &info) || info.ladder != ladder.id) {
        return {grpc::StatusCode::ALREADY_EXISTS, who.name + " already has ticket " + existing + " in the queue of " +
                                                      (info.ladder.empty() ? "another ladder" : info.ladder) +
                                                      " (one at a time; Cancel it first)"};
      }
      // An assigned ticket is resumed only while its game is not over: its
      // Delivered write may have been lost (a Redis failover), and the player
      // would be sent back to the game it has just finished.
      if (attempt == 0 && info.state == "assigned" && GameOver(info)) {
        tickets_->Spend(existing, who.identity_id, info.game_id);
        services::LogInfo("seat not resumed: its game is over",
                          {{"ticket", existing}, {"ladder", ladder.id}, {"game", info.game_id}});
        continue;
      }
      id = existing;
      services::LogInfo("ticket resumed", {{"ticket", id}, {"ladder", ladder.id}});
      break;
    }
  } catch (const std::exception& e) {
    return RedisDown(e);
  }
  int64_t last_sent = -1;
  uint32_t last_position = UINT32_MAX;
  for (;;) {
    if (context->IsCancelled()) {
      std::string state;
      try {
        tickets_->Cancel(id, &state);
      } catch (const std::exception&) {
        // It expires without heartbeats.
      }
      return {grpc::StatusCode::CANCELLED, "the client left the queue"};
    }
    TicketInfo info;
    int64_t now = 0;
    try {
      now = tickets_->Now();  // Redis's clock: it may have to ask
      if (!tickets_->Poll(id, now, &info)) return {grpc::StatusCode::ABORTED, "ticket " + id + " disappeared"};
    } catch (const std::exception& e) {
      return RedisDown(e);
    }
    if (info.state == "assigned") {
      v1::EnqueueUpdate update;
      v1::Assignment* a = update.mutable_assignment();
      a->set_ticket_id(id);
      a->set_game_id(info.game_id);
      a->set_host(info.host);
      a->set_seat_token(info.seat_token);
      a->set_seat(uint32_t(info.seat));
      a->set_chance_commitment(info.chance_commitment);
      try {
        for (const HostInfo& h : tickets_->Hosts())
          if (h.address != info.host) a->add_other_hosts(h.address);
      } catch (const std::exception&) {
        // Only a help for when the game's host dies; the seat goes out without it.
      }
      call.SetGame(info.game_id);
      if (!writer->Write(update)) {
        // Its next Enqueue resumes the ticket and gets this seat.
        return {grpc::StatusCode::CANCELLED, "the stream broke before the seat was sent"};
      }
      services::LogInfo("seat sent", {{"ticket", id}, {"ladder", ladder.id}, {"seat", std::to_string(info.seat)}});
      try {
        tickets_->Delivered(id, who.identity_id);
      } catch (const std::exception&) {
        // The identity's next Enqueue within a couple of minutes gets this seat again.
      }
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
        try {
          tickets_->Cancel(id, &state);
        } catch (const std::exception&) {
        }
        return {grpc::StatusCode::CANCELLED, "the stream broke"};
      }
      last_sent = now;
      last_position = uint32_t(info.position);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(options_.poll_ms));
  }
}

grpc::Status MatchmakerService::Cancel(grpc::ServerContext* context, const v1::CancelRequest*,
                                       v1::CancelResponse* response) {
  services::CallLogContext call(*context);
  auth::Principal who;
  if (grpc::Status s = Authenticate(*context, &who); !s.ok()) return s;
  if (who.identity_id == 0)
    return {grpc::StatusCode::PERMISSION_DENIED, "cancelling needs a player's or a bot's token"};
  try {
    const std::string id = tickets_->ActiveTicket(who.identity_id);
    if (id.empty()) return {grpc::StatusCode::NOT_FOUND, who.name + " has no ticket in a queue"};
    std::string state;
    if (!tickets_->Cancel(id, &state))
      return {grpc::StatusCode::FAILED_PRECONDITION, "ticket " + id + " is " + state + ", no longer queued"};
    response->set_ticket_id(id);
  } catch (const std::exception& e) {
    return RedisDown(e);
  }
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
  try {
    const int64_t now = tickets_->Now();
    const std::vector<Ticket> queue = tickets_->Queue(ladder.id);
    response->set_ladder(ladder.id);
    response->set_queued(uint32_t(queue.size()));
    int64_t oldest = now;
    for (const Ticket& t : queue) oldest = std::min(oldest, t.enqueued_ms);
    response->set_longest_wait_ms(uint64_t(now - oldest));
    for (const HostInfo& h : tickets_->Hosts()) {
      v1::HostStatus* s = response->add_hosts();
      s->set_address(h.address);
      s->set_capacity(uint32_t(h.capacity));
      s->set_live(uint32_t(h.live));
      s->set_seen_ms_ago(uint64_t(std::max<int64_t>(0, now - h.seen_ms)));
    }
  } catch (const std::exception& e) {
    return RedisDown(e);
  }
  return grpc::Status::OK;
}

grpc::Status MatchmakerService::RegisterHost(grpc::ServerContext* context, const v1::RegisterHostRequest* request,
                                             v1::RegisterHostResponse*) {
  services::CallLogContext call(*context);
  auth::Principal who;
  if (grpc::Status s = Authenticate(*context, &who); !s.ok()) return s;
  if (!auth::MayWriteResults(who))
    return {grpc::StatusCode::PERMISSION_DENIED, "registering a host needs the game hosts' service token"};
  const std::string& address = request->address();
  if (address.empty() || address.size() > 200 || address.find(':') == std::string::npos)
    return {grpc::StatusCode::INVALID_ARGUMENT, "address: host:port, at most 200 characters"};
  if (request->capacity() == 0) return {grpc::StatusCode::INVALID_ARGUMENT, "capacity: at least 1"};
  try {
    tickets_->HostHeartbeat({address, request->capacity(), request->live(), tickets_->Now()});
  } catch (const std::exception& e) {
    return RedisDown(e);
  }
  return grpc::Status::OK;
}

}  // namespace metropolis::matchmaker
