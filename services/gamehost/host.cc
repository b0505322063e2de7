#include "services/gamehost/host.h"

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "bots/bot.h"
#include "lib/chance/verifiable.h"
#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"
#include "lib/common/secret.h"
#include "lib/protocol/convert.h"

namespace metropolis::gamehost {
namespace {

constexpr uint32_t kMaxDecisionMs = 3'600'000;
constexpr uint32_t kMaxTimeBankMs = 86'400'000;
constexpr size_t kMaxGameIdLength = 64;
constexpr size_t kMaxNameLength = 100;
constexpr size_t kMaxChanceIdentity = 200;
constexpr uint32_t kMaxLockstep = 8;
constexpr uint32_t kMaxPageSize = 1000;
constexpr std::string_view kPageTokenPrefix = "after:";
constexpr int kMaxSeatsOf = 4096;  // identities per SeatsOf

bool ValidGameId(const std::string& id) {
  if (id.empty() || id.size() > kMaxGameIdLength) return false;
  return std::all_of(id.begin(), id.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; });
}

grpc::Status Invalid(std::string message) { return {grpc::StatusCode::INVALID_ARGUMENT, std::move(message)}; }

}  // namespace

std::string CheckBotSpec(const std::string& spec, services::Millis max_think_ms) {
  std::string error;
  const std::unique_ptr<bots::Bot> bot = bots::MakeBot(spec, &error);
  if (!bot) return error;
  if (bot->think_ms() <= double(max_think_ms)) return {};
  char think[32];
  std::snprintf(think, sizeof think, "%.10g", bot->think_ms());
  return services::Quoted(spec) + " thinks up to " + think + " ms per decision; this host's bots may think at most " +
         std::to_string(max_think_ms) + " ms";
}

Host::Host(HostOptions options, const services::Clock* clock, Timers* timers, Executor* bots, CompletedGameSink* sink,
           GameDirectory* directory, HostMetrics* metrics, Executor* work)
    : options_(std::move(options)),
      clock_(clock),
      timers_(timers),
      bots_(bots),
      work_(work),
      sink_(sink),
      directory_(directory),
      metrics_(metrics),
      lockstep_({options_.lockstep_lead, options_.lockstep_missing_wait_ms}, clock) {
  if (options_.chance_key.empty()) options_.chance_key = std::string(chance::AsBytes(chance::RandomSeed()));
}

Host::~Host() {
  if (lease_thread_.joinable()) {
    {
      std::lock_guard lock(lease_mutex_);
      lease_stopping_ = true;
    }
    lease_cv_.notify_all();
    lease_thread_.join();
  }
  // The sink calls back into this host for every game it keeps.
  WaitStored();
}

grpc::Status Host::CheckToken(const std::string& token, Access access) const {
  if (token.empty()) return {grpc::StatusCode::UNAUTHENTICATED, "missing 'authorization: Bearer <token>' metadata"};
  if (services::SameSecret(token, options_.admin_token)) return grpc::Status::OK;
  // A known token without the right is refused as such; anything else is anonymous.
  if (services::SameSecret(token, options_.spectator_token)) {
    if (access == Access::kAdministrator)
      return {grpc::StatusCode::PERMISSION_DENIED, "this call needs the administrator token"};
    return grpc::Status::OK;
  }
  return {grpc::StatusCode::UNAUTHENTICATED, "unknown token"};
}

grpc::Status Host::CreateGame(const std::string& token, const v1::CreateGameRequest& request,
                              v1::CreateGameResponse* response) {
  if (grpc::Status s = CheckToken(token, Access::kAdministrator); !s.ok()) return s;
  GameSetup setup;
  const int seats = request.seats_size();
  if (seats < kMinSeats || seats > kMaxSeats)
    return Invalid("seats: " + std::to_string(seats) + " given, a game has 3 or 4");
  v1::GameConfig config_proto = request.config();
  if (config_proto.num_seats() == 0) config_proto.set_num_seats(uint32_t(seats));
  if (int(config_proto.num_seats()) != seats) {
    return Invalid("config.num_seats is " + std::to_string(config_proto.num_seats()) + " but " + std::to_string(seats) +
                   " seats are given");
  }
  std::string error;
  if (!protocol::ConfigFromProto(config_proto, &setup.config, &error)) return Invalid("config: " + error);
  for (int i = 0; i < seats; ++i) {
    const v1::SeatSpec& spec = request.seats(i);
    SeatSetup seat;
    seat.name = spec.name().empty() ? "seat " + std::to_string(i) : spec.name();
    if (seat.name.size() > kMaxNameLength)
      return Invalid("seats[" + std::to_string(i) + "].name: longer than " + std::to_string(kMaxNameLength));
    seat.fallback_bot = spec.fallback_bot().empty() ? options_.default_fallback_bot : spec.fallback_bot();
    // Its decisions take one of the bot threads every game here shares.
    if (std::string why = CheckBotSpec(seat.fallback_bot, options_.max_bot_think_ms); !why.empty())
      return Invalid("seats[" + std::to_string(i) + "].fallback_bot: " + why);
    seat.built_in = spec.built_in();
    if (spec.identity_id() < 0) return Invalid("seats[" + std::to_string(i) + "].identity_id: negative");
    seat.identity_id = spec.identity_id();
    if (!seat.built_in) {
      seat.token = services::RandomSecretHex(16);
      seat.token_hash = TokenHash(seat.token);
    }
    setup.seats.push_back(std::move(seat));
  }
  const uint32_t decision_ms = request.deadlines().decision_ms();
  const uint32_t bank_ms = request.deadlines().time_bank_ms();
  if (decision_ms > kMaxDecisionMs) return Invalid("deadlines.decision_ms: more than an hour");
  if (bank_ms > kMaxTimeBankMs) return Invalid("deadlines.time_bank_ms: more than a day");
  setup.decision_ms = decision_ms ? decision_ms : options_.default_decision_ms;
  setup.time_bank_ms = bank_ms ? bank_ms : options_.default_time_bank_ms;
  if (request.chance_identity().size() > kMaxChanceIdentity) {
    return Invalid("chance_identity: longer than " + std::to_string(kMaxChanceIdentity) + " bytes");
  }
  setup.chance_seed = request.chance_seed();
  if (request.board_from_chance()) {
    if (config_proto.has_board() || config_proto.random_board_seed() != 0)
      return Invalid("board_from_chance: the config gives a board already");
    if (setup.chance_seed != 0) return Invalid("board_from_chance: needs verifiable chance (chance_seed 0)");
  }
  setup.start_timeout_ms = options_.start_timeout_ms;
  setup.ladder = request.ladder();
  setup.season = request.season();
  setup.tournament = request.tournament();
  setup.hidden = request.hidden();
  if (request.lockstep() > kMaxLockstep)
    return Invalid("lockstep: at most " + std::to_string(kMaxLockstep) + " games, a duplicate set's rotations");
  if (request.lockstep() > 1 && (request.chance_identity().empty() || request.chance_seed() != 0))
    return Invalid("lockstep: needs a chance_identity and verifiable chance (chance_seed 0)");
  setup.lockstep = request.lockstep();
  setup.forfeit_after = options_.forfeit_after;
  if (!request.game_id().empty() && !ValidGameId(request.game_id())) {
    return Invalid("game_id: " + services::Quoted(request.game_id()) + " must be 1 to 64 letters, digits, '-' or '_'");
  }
  setup.id = request.game_id().empty() ? "g-" + services::RandomSecretHex(8) : request.game_id();
  // Verifiable chance unless the caller chose a known seed: a game of its own
  // gets a fresh random seed (a game id can be chosen by the caller, a seed
  // must not be); games sharing an identity derive theirs from the key.
  if (setup.chance_seed == 0) {
    const chance::Seed seed = request.chance_identity().empty()
                                  ? chance::RandomSeed()
                                  : chance::DeriveSeed(options_.chance_key, request.chance_identity());
    setup.verifiable_seed = std::string(chance::AsBytes(seed));
    if (request.board_from_chance()) setup.config.board = RandomBoard(chance::SubSeed(seed, "board"));
  }
  // The caller's request id (the matchmaker's round), which the game keeps for
  // its storing and rating; the lines from here on name the game.
  const services::LogContext* call = services::CurrentLogContext();
  setup.request_id = call ? call->request_id() : services::NewRequestId();
  services::LogContext log_context(setup.request_id, setup.id);

  // The tokens go to the caller; the game keeps only their hashes.
  std::vector<std::string> tokens;
  for (SeatSetup& seat : setup.seats) tokens.push_back(std::exchange(seat.token, {}));
  std::shared_ptr<Game> game;
  if (grpc::Status s = Game::Create(setup, MakeEnv(), &game); !s.ok()) return s;
  {
    std::lock_guard lock(mutex_);
    if (live_.size() >= options_.max_live_games) {
      return {grpc::StatusCode::RESOURCE_EXHAUSTED,
              "this host runs " + std::to_string(live_.size()) + " games, its limit"};
    }
    if (live_.count(setup.id) || finished_.count(setup.id) || directory_->Lookup(setup.id)) {
      return {grpc::StatusCode::ALREADY_EXISTS, "game " + setup.id + " exists"};
    }
    if (!checkpoints_) live_[setup.id] = game;
  }
  if (checkpoints_) {
    // Checkpointed and fenced before the lease keeper can see it in live_.
    uint64_t fence = 0;
    const grpc::Status status = checkpoints_->Create(setup.id, CheckpointSetupBytes(setup, clock_->UnixMillis()),
                                                     address(), options_.lease_ms, &fence);
    if (!status.ok()) {
      if (status.error_code() == grpc::StatusCode::ALREADY_EXISTS)
        return {grpc::StatusCode::ALREADY_EXISTS, "game " + setup.id + " exists"};
      // A game that cannot be checkpointed would die with this host: refused,
      // so that the caller tries another host or later (INTERNAL too: the store's
      // error reply is logged where it happened, and the caller's retry is harmless).
      return {grpc::StatusCode::UNAVAILABLE, "cannot checkpoint the game: " + status.error_message()};
    }
    game->SetFence(fence);
    std::lock_guard lock(mutex_);
    live_[setup.id] = game;
  }
  directory_->Register(setup.id, address());
  if (metrics_) metrics_->GameCreated();
  response->set_game_id(setup.id);
  for (const std::string& token : tokens) response->add_seat_tokens(token);
  response->set_host(address());
  response->set_chance_commitment(game->chance_commitment());
  services::LogInfo("game created", {{"game", setup.id},
                                     {"seats", std::to_string(seats)},
                                     {"ladder", setup.ladder},
                                     {"options", OptionsToString(setup.config.options)}});
  game->Start();
  return grpc::Status::OK;
}

grpc::Status Host::Locate(const std::string& game_id, Target* out) {
  if (game_id.empty()) return Invalid("game_id is empty");
  {
    std::lock_guard lock(mutex_);
    if (auto it = live_.find(game_id); it != live_.end()) {
      out->game = it->second;
      return grpc::Status::OK;
    }
    if (auto it = finished_.find(game_id); it != finished_.end()) {
      out->game = it->second;
      return grpc::Status::OK;
    }
  }
  const std::optional<std::string> owner = directory_->Lookup(game_id);
  if (owner && *owner != address()) {
    out->redirect = *owner;
    return grpc::Status::OK;
  }
  // A game whose host died and whose lease lapsed: whoever a seat reaches first
  // takes it over, rather than sending it to wait for the next lease scan. A
  // game leased to this address that this host does not run was a previous
  // run's (this host restarted in place): it is taken back at once.
  if (checkpoints_) {
    bool reclaim = owner.has_value();
    if (reclaim) {
      std::lock_guard lock(mutex_);
      reclaim = !awaiting_delivery_.count(game_id) && !undropped_.count(game_id);
    }
    const grpc::Status taken = TakeOver(game_id, reclaim ? Claim::kLapsedOrMine : Claim::kLapsed);
    {
      std::lock_guard lock(mutex_);
      if (auto it = live_.find(game_id); it != live_.end()) {
        out->game = it->second;
        return grpc::Status::OK;
      }
    }
    if (auto host = directory_->Lookup(game_id)) {
      if (*host != address()) {
        out->redirect = *host;
        return grpc::Status::OK;
      }
      return {grpc::StatusCode::UNAVAILABLE, "game " + game_id + " is being resumed here; connect again"};
    }
    // The store cannot be reached or its owner may yet renew it: a game that may
    // exist is not "not found" (seats try again on UNAVAILABLE).
    if (taken.error_code() == grpc::StatusCode::UNAVAILABLE) return taken;
  }
  return {grpc::StatusCode::NOT_FOUND, "no game " + game_id + " on this host"};
}

grpc::Status Host::FindSeat(const std::string& token, const std::string& game_id, Target* out) {
  if (token.empty()) return {grpc::StatusCode::UNAUTHENTICATED, "missing 'authorization: Bearer <token>' metadata"};
  if (grpc::Status s = Locate(game_id, out); !s.ok() || !out->game) return s;
  const std::string hash = TokenHash(token);
  for (int i = 0; i < out->game->num_seats(); ++i) {
    if (out->game->IsSeatToken(i, hash)) {
      out->seat = i;
      return grpc::Status::OK;
    }
  }
  out->game.reset();
  return {grpc::StatusCode::UNAUTHENTICATED, "the token is not a seat token of game " + game_id};
}

grpc::Status Host::FindForViewing(const std::string& token, const std::string& game_id, Target* out) {
  if (token.empty()) return {grpc::StatusCode::UNAUTHENTICATED, "missing 'authorization: Bearer <token>' metadata"};
  if (grpc::Status s = Locate(game_id, out); !s.ok() || !out->game) return s;
  if (CheckToken(token, Access::kSpectator).ok()) return grpc::Status::OK;
  const std::string hash = TokenHash(token);
  for (int i = 0; i < out->game->num_seats(); ++i)
    if (out->game->IsSeatToken(i, hash)) return grpc::Status::OK;
  out->game.reset();
  return {grpc::StatusCode::UNAUTHENTICATED, "unknown token"};
}

grpc::Status Host::GetGame(const std::string& token, const std::string& game_id, v1::GameInfo* out) {
  Target target;
  if (grpc::Status s = FindForViewing(token, game_id, &target); !s.ok()) return s;
  if (target.game && target.game->hidden() && !CheckToken(token, Access::kAdministrator).ok()) {
    bool seat = false;
    const std::string hash = TokenHash(token);
    for (int i = 0; i < target.game->num_seats(); ++i) seat |= target.game->IsSeatToken(i, hash);
    // Its points and progress would tell a duplicate set's later rotations too much.
    if (!seat)
      return {grpc::StatusCode::PERMISSION_DENIED,
              "game " + game_id + " is hidden until its duplicate set has finished"};
  }
  if (!target.game) {
    out->set_game_id(game_id);
    out->set_host(target.redirect);
    return grpc::Status::OK;
  }
  target.game->Info(out);
  out->set_host(address());
  return grpc::Status::OK;
}

grpc::Status Host::SeatsOf(const std::string& token, const v1::SeatsOfRequest& request, v1::SeatsOfResponse* response) {
  if (grpc::Status s = CheckToken(token, Access::kAdministrator); !s.ok()) return s;
  if (request.ladder().empty()) return Invalid("ladder: required (seats are looked up in one ladder's games)");
  if (request.identity_ids_size() == 0 || request.identity_ids_size() > kMaxSeatsOf)
    return Invalid("identity_ids: 1 to " + std::to_string(kMaxSeatsOf) + " identities");
  for (int64_t id : request.identity_ids())
    if (id <= 0) return Invalid("identity_ids: " + std::to_string(id) + " is not an identity");
  std::vector<std::shared_ptr<Game>> games;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, game] : live_)
      if (game->ladder() == request.ladder()) games.push_back(game);
  }
  const std::unordered_set<int64_t> wanted_ids(request.identity_ids().begin(), request.identity_ids().end());
  const auto wanted = [&](int64_t identity) { return wanted_ids.count(identity) > 0; };
  for (const auto& game : games) {
    for (int s = 0; s < game->num_seats(); ++s) {
      if (!wanted(game->seat_identity(s))) continue;
      const std::string seat_token = services::RandomSecretHex(16);
      const Game::SeatAgain given = game->GiveSeatAgain(s, TokenHash(seat_token));
      if (given == Game::SeatAgain::kOver) continue;
      v1::HeldSeat* held = response->add_seats();
      held->set_identity_id(game->seat_identity(s));
      held->set_game_id(game->id());
      held->set_seat(uint32_t(s));
      held->set_connected(given == Game::SeatAgain::kConnected);
      if (given == Game::SeatAgain::kGiven) held->set_seat_token(seat_token);
      held->set_chance_commitment(game->chance_commitment());
    }
  }
  return grpc::Status::OK;
}

grpc::Status Host::ListGames(const std::string& token, const v1::ListGamesRequest& request,
                             v1::ListGamesResponse* response) {
  if (grpc::Status s = CheckToken(token, Access::kSpectator); !s.ok()) return s;
  if (request.page_size() > kMaxPageSize) return Invalid("page_size: at most 1000");
  const uint32_t page = request.page_size() ? request.page_size() : 100;
  // Keyset paging on the game id: a page token is "after:" and the last id of the
  // previous page. Anything else is no token a host gave, and is refused rather
  // than read as a place in the list.
  std::string after;
  if (!request.page_token().empty()) {
    const std::string& token = request.page_token();
    if (!token.starts_with(kPageTokenPrefix) || !ValidGameId(token.substr(kPageTokenPrefix.size())))
      return Invalid("page_token: " + services::Quoted(token) + " is not a token this host gave");
    after = token.substr(kPageTokenPrefix.size());
  }
  std::vector<std::shared_ptr<Game>> games;
  {
    std::lock_guard lock(mutex_);
    for (auto it = live_.upper_bound(after); it != live_.end() && games.size() <= page; ++it)
      if (!it->second->hidden()) games.push_back(it->second);
  }
  for (size_t i = 0; i < games.size() && i < page; ++i) {
    v1::GameInfo* info = response->add_games();
    games[i]->Info(info);
    info->set_host(address());
  }
  if (games.size() > page) response->set_next_page_token(std::string(kPageTokenPrefix) + games[page - 1]->id());
  return grpc::Status::OK;
}

void Host::SetAddress(const std::string& address) {
  std::lock_guard lock(mutex_);
  options_.address = address;
}

std::string Host::address() const {
  std::lock_guard lock(mutex_);
  return options_.address;
}

size_t Host::live_games() const {
  std::lock_guard lock(mutex_);
  return live_.size();
}

void Host::OnComplete(std::shared_ptr<Game> game, CompletedGame done) {
  const std::string id = done.game_id;
  const EndReason reason = done.reason;
  sink_->Put(std::move(done), [this, game = std::move(game), id, reason] { OnKept(game, id, reason); });
}

void Host::WaitStored() { sink_->WaitStored(); }

// The sink holds the game for good: it leaves the live games, and only now do
// its seats hear it is over.
void Host::OnKept(const std::shared_ptr<Game>& game, const std::string& id, EndReason reason) {
  // Read before taking mutex_: a game calls into the host (OnFenced) under its own lock.
  const uint64_t fence = game->fence();
  {
    std::lock_guard lock(mutex_);
    live_.erase(id);
    // In the same step, so that the lease renewal (KeepLeases) always finds the
    // game in one of the two: a renewal skipped here could let its lease lapse.
    if (checkpoints_ && !options_.done_when_stored) awaiting_delivery_[id] = fence;
    finished_[id] = game;
    finished_order_.push_back(id);
    while (finished_order_.size() > options_.finished_games_kept) {
      finished_.erase(finished_order_.front());
      finished_order_.pop_front();
    }
  }
  if (metrics_)
    metrics_->GameFinished(reason == EndReason::kWon        ? "won"
                           : reason == EndReason::kResigned ? "resigned"
                                                            : "length_cap");
  if (checkpoints_ && options_.done_when_stored && !MarkDone(id)) {
    std::lock_guard lock(mutex_);
    undropped_[id] = {.fence = fence};
  }
  game->OnStored();
}

}  // namespace metropolis::gamehost

namespace metropolis::gamehost {

GameEnv Host::MakeEnv() {
  GameEnv env;
  env.clock = clock_;
  env.timers = timers_;
  env.bots = bots_;
  env.max_bot_think_ms = options_.max_bot_think_ms;
  env.work = work_;
  env.metrics = metrics_;
  env.lockstep = &lockstep_;
  env.lockstep_poll_ms = options_.lockstep_poll_ms;
  env.on_complete = [this](std::shared_ptr<Game> game, CompletedGame done) {
    OnComplete(std::move(game), std::move(done));
  };
  env.on_voided = [this](const std::string& game_id, const std::string& reason, uint64_t fence) {
    OnVoided(game_id, reason, fence);
  };
  env.check_seen_step = options_.check_seen_step;
  env.coalesce_events_ms = options_.coalesce_events_ms;
  if (checkpoints_) {
    env.checkpoints = checkpoints_;
    env.writer = writer_;
    env.host = address();
    env.lease_ms = options_.lease_ms;
    env.pause_limit_ms = options_.pause_limit_ms;
    env.pause_retry_ms = std::max<services::Millis>(1, options_.lease_ms / 30);
    env.on_fenced = [this](const std::string& game_id) { OnFenced(game_id); };
  }
  return env;
}

void Host::SetCheckpoints(CheckpointStore* store, LeaseKeeping keeping, CheckpointWriter* writer) {
  checkpoints_ = store;
  writer_ = writer;
  if (keeping == LeaseKeeping::kBackgroundThread) lease_thread_ = std::thread([this] { LeaseLoop(); });
}

void Host::LeaseLoop() {
  std::unique_lock lock(lease_mutex_);
  while (!lease_stopping_) {
    lock.unlock();
    KeepLeases();
    lock.lock();
    lease_cv_.wait_for(lock, std::chrono::milliseconds(std::max<services::Millis>(1, options_.lease_ms / 3)),
                       [this] { return lease_stopping_; });
  }
}

void Host::KeepLeases() {
  std::vector<std::shared_ptr<Game>> games;
  std::map<std::string, uint64_t> delivering;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, game] : live_) games.push_back(game);
    delivering = awaiting_delivery_;
  }
  // False when the store could not be written: not reached, or refusing our
  // scripts (INTERNAL, as before the store answered with statuses).
  bool reachable = true;
  const auto failed = [](const grpc::Status& s) {
    return s.error_code() == grpc::StatusCode::UNAVAILABLE || s.error_code() == grpc::StatusCode::INTERNAL;
  };
  // Games over here whose checkpoint is still to be dropped: their leases are
  // renewed before anything else, then Done is tried again.
  std::map<std::string, Undropped> undropped;
  {
    std::lock_guard lock(mutex_);
    undropped = undropped_;
  }
  for (const auto& [id, over] : undropped) {
    const grpc::Status renewed = checkpoints_->Renew(id, over.fence, address(), options_.lease_ms);
    if (failed(renewed)) continue;
    // Fenced: taken over, or dropped already (a Done whose reply was lost).
    const bool fenced = renewed.error_code() == grpc::StatusCode::ABORTED;
    if (fenced && over.void_game)
      services::LogError("a void game was taken over before its checkpoint could be dropped", {{"game", id}});
    if (fenced || MarkDone(id)) {
      std::lock_guard lock(mutex_);
      undropped_.erase(id);
    }
  }
  for (const auto& game : games) {
    if (failed(game->RenewLease())) reachable = false;
  }
  const std::string self = address();
  for (const auto& [id, fence] : delivering) {
    // Fenced: delivered meanwhile (its checkpoint is gone) or taken over.
    // Missing: its creation was lost and nothing is left to keep.
    if (const grpc::StatusCode code = checkpoints_->Renew(id, fence, self, options_.lease_ms).error_code();
        code == grpc::StatusCode::ABORTED || code == grpc::StatusCode::NOT_FOUND) {
      std::lock_guard lock(mutex_);
      awaiting_delivery_.erase(id);
    }
  }
  if (!reachable) return;  // the store is down: nobody takes anything over now

  size_t room = 0;
  {
    std::lock_guard lock(mutex_);
    room = options_.max_live_games > live_.size() ? options_.max_live_games - live_.size() : 0;
  }
  if (room == 0) return;
  std::vector<std::string> orphans;
  if (!checkpoints_->Orphans(room, options_.lease_ms, &orphans).ok()) return;
  for (const std::string& id : orphans) TakeOver(id);
}

grpc::Status Host::TakeOver(const std::string& game_id, Claim claim) {
  // One at a time: the lease scan and a seat's reconnection may race for one game.
  std::lock_guard takeover(takeover_mutex_);
  {
    std::lock_guard lock(mutex_);
    if (live_.count(game_id) || finished_.count(game_id)) return grpc::Status::OK;
    if (live_.size() >= options_.max_live_games)
      return {grpc::StatusCode::RESOURCE_EXHAUSTED, "this host runs " + std::to_string(live_.size()) + " games"};
  }
  uint64_t fence = 0;
  Checkpoint checkpoint;
  const grpc::Status status = claim == Claim::kLapsedOrMine
                                  ? checkpoints_->Reclaim(game_id, address(), options_.lease_ms, &fence, &checkpoint)
                                  : checkpoints_->TakeOver(game_id, address(), options_.lease_ms, &fence, &checkpoint);
  // The store's codes become what a seat reconnecting to the game is told (host.h).
  switch (status.error_code()) {
    case grpc::StatusCode::OK:
      break;
    case grpc::StatusCode::ABORTED:  // held by a host, or finished
      return {grpc::StatusCode::FAILED_PRECONDITION, status.error_message()};
    case grpc::StatusCode::FAILED_PRECONDITION:
      // Redis was just unreachable, restarted or stalled: the owner gets a lease to renew first.
      return {grpc::StatusCode::UNAVAILABLE, status.error_message() + "; connect again"};
    default:
      services::LogError("taking over a game failed", {{"game", game_id}, {"error", status.error_message()}});
      return {grpc::StatusCode::UNAVAILABLE, status.error_message()};
  }
  std::string error;
  GameSetup setup;
  int64_t created_unix_ms = 0;
  std::shared_ptr<Game> game;
  grpc::Status s;
  if (!SetupFromCheckpoint(checkpoint.setup, &setup, &created_unix_ms, &error)) {
    s = {grpc::StatusCode::DATA_LOSS, "game " + game_id + ": " + error};
  } else {
    services::LogContext log_context(setup.request_id, setup.id);
    s = Game::Resume(setup, MakeEnv(), created_unix_ms, checkpoint, fence, &game);
  }
  if (!s.ok()) {
    // Left to its lease: it lapses again, and a host (perhaps a fixed one) tries again.
    services::LogError("a checkpoint does not replay", {{"game", game_id}, {"error", s.error_message()}});
    return s;
  }
  {
    std::lock_guard lock(mutex_);
    live_[game_id] = game;
  }
  if (metrics_) metrics_->GameTakenOver();
  services::LogContext log_context(setup.request_id, setup.id);
  services::LogInfo(
      claim == Claim::kLapsedOrMine ? "game taken back from this host's previous run" : "game taken over",
      {{"game", game_id}, {"step", std::to_string(checkpoint.actions.size())}, {"fence", std::to_string(fence)}});
  game->Start();
  return grpc::Status::OK;
}

void Host::OnFenced(const std::string& game_id) {
  {
    std::lock_guard lock(mutex_);
    if (!live_.erase(game_id)) return;
  }
  if (metrics_) metrics_->GameLost();
}

void Host::OnVoided(const std::string& game_id, const std::string& reason, uint64_t fence) {
  {
    std::lock_guard lock(mutex_);
    if (!live_.erase(game_id)) return;
  }
  if (metrics_) {
    metrics_->GameFinished(reason == "nobody joined"      ? "void"
                           : reason == "store lost steps" ? "void_store_lost_steps"
                                                          : "void_store_unavailable");
  }
  // Never to be taken over and played: until its checkpoint is gone, its lease is kept.
  if (checkpoints_ && !MarkDone(game_id)) {
    std::lock_guard lock(mutex_);
    undropped_[game_id] = {.fence = fence, .void_game = true};
  }
}

bool Host::MarkDone(const std::string& game_id) {
  if (const grpc::Status s = checkpoints_->Done(game_id); !s.ok()) {
    // The caller keeps its lease and tries again (undropped_) when it holds one.
    services::LogWarning("dropping a game's checkpoint failed", {{"game", game_id}, {"error", s.error_message()}});
    return false;
  }
  return true;
}

void Host::GameDelivered(const std::string& game_id) {
  if (!checkpoints_) return;
  const bool dropped = MarkDone(game_id);
  std::lock_guard lock(mutex_);
  const auto it = awaiting_delivery_.find(game_id);
  // Not ours to keep: a previous run's game (its lease lapsed long ago), or one
  // whose checkpoint was taken over or went meanwhile (KeepLeases).
  if (it == awaiting_delivery_.end()) return;
  // Delivered while Redis could not be reached (storing and rating need none): were
  // its lease left to lapse, the other host's first scan once Redis has served a
  // lease would take the finished game over and store it a second time. It is
  // kept, and the checkpoint dropped at the next renewal that reaches Redis.
  if (!dropped) undropped_[game_id] = {.fence = it->second};
  awaiting_delivery_.erase(it);
}

}  // namespace metropolis::gamehost
