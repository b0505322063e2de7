// The game host's logic, apart from its gRPC wiring (service.h): creating
// games, finding the game and seat behind a token, handing completed games to
// the sink (outbox.h), and the live and recently finished games.
#pragma once

#include <grpcpp/support/status.h>

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "metropolis/v1/gamehost.pb.h"
#include "services/gamehost/directory.h"
#include "services/gamehost/game.h"

namespace metropolis::gamehost {

struct HostOptions {
  std::string address = "127.0.0.1:50051";  // what GetGame and redirects advertise
  std::string admin_token;                  // CreateGame
  std::string spectator_token;              // Spectate, GetGame, ListGames
  uint32_t default_decision_ms = 10'000;
  uint32_t default_time_bank_ms = 60'000;
  std::string default_fallback_bot = "heuristic";
  // How long a fallback or built-in bot may think per decision: the bot threads
  // are shared by every game here. A seat whose bot's spec asks for more is
  // refused (CheckBotSpec); an iteration budget is ended there (Bot::LimitThinking).
  services::Millis max_bot_think_ms = 2'000;
  services::Millis start_timeout_ms = 30'000;
  size_t max_live_games = 10'000;
  size_t finished_games_kept = 1'000;  // answered by GetGame after the end
  uint32_t forfeit_after = 20;         // fallback decisions in a row that forfeit a seat; 0 = never
  // Checkpoints (SetCheckpoints): how long a lease lasts unless renewed. The
  // host renews its leases and looks for lapsed ones every lease_ms / 3.
  services::Millis lease_ms = 3'000;
  // A game whose checkpoint cannot be written pauses; after this long it is void
  // ("store unavailable"); 0: it waits as long as it takes.
  services::Millis pause_limit_ms = 600'000;
  // Whether a game's checkpoint is dropped once the sink kept it; false when
  // the outbox delivers it later and calls GameDelivered.
  bool done_when_stored = true;
  // GameEnv::coalesce_events_ms: how long a seat that is not to act may wait
  // for the events of the steps played meanwhile; 0: each step's at once.
  services::Millis coalesce_events_ms = 0;
  // GameEnv::check_seen_step: off only as a negative control ("seen_step").
  bool check_seen_step = true;
  // The platform key the secret seeds of games that share a chance identity
  // derive from (docs/CHANCE.md): every host of a deployment has the same one,
  // so that a duplicate set's rotations meet the same chance on any host, and
  // it never leaves the hosts. Empty: a random key for this host only.
  std::string chance_key;
  // Rotations in lockstep (lockstep.h): how many chance draws a rotation may be
  // ahead of the slowest of its set (--lockstep-lead), how often a held one
  // looks again, and how long a rotation not on this host is waited for. The
  // last two have no flag: the scheduler starts a set's rotations together on
  // one host, so the wait covers only a rotation refused or still being
  // created, and a minute is long for that and short next to a game.
  uint32_t lockstep_lead = 2;
  services::Millis lockstep_poll_ms = 20;
  services::Millis lockstep_missing_wait_ms = 60'000;
};

// Empty when `spec` makes a bot that thinks at most `max_think_ms` per decision
// by its spec; otherwise why it is refused (an unknown spec included).
std::string CheckBotSpec(const std::string& spec, services::Millis max_think_ms);

class Host {
 public:
  // `work`: the game threads each game's strand runs on (game.h); null: games
  // run their work inline (unit tests).
  Host(HostOptions options, const services::Clock* clock, Timers* timers, Executor* bots, CompletedGameSink* sink,
       GameDirectory* directory, HostMetrics* metrics, Executor* work = nullptr);
  ~Host();  // waits until the sink kept every completed game, then stops

  // Checkpoints every game in `store` and takes over the games of hosts whose
  // leases lapse (checkpoint.h). Call once, before the first game. With
  // kCallerDrives, leases are kept only when KeepLeases is called (tests).
  enum class LeaseKeeping { kBackgroundThread, kCallerDrives };
  // `writer` (null: none): the games' appends go through it (game.h, GameEnv::writer).
  void SetCheckpoints(CheckpointStore* store, LeaseKeeping keeping = LeaseKeeping::kBackgroundThread,
                      CheckpointWriter* writer = nullptr);
  // Renews this host's leases, then takes over lapsed games while there is
  // room. The lease thread calls it every lease_ms / 3; tests call it directly.
  void KeepLeases();
  // Takes over one game whose lease lapsed (kLapsedOrMine: also one whose live
  // lease names this host's address: a previous run of it, CheckpointStore::
  // Reclaim); NOT_FOUND or FAILED_PRECONDITION when it is not to be had.
  enum class Claim { kLapsed, kLapsedOrMine };
  grpc::Status TakeOver(const std::string& game_id, Claim claim = Claim::kLapsed);
  // The forwarder delivered a completed game: its checkpoint can go.
  void GameDelivered(const std::string& game_id);

  grpc::Status CreateGame(const std::string& token, const v1::CreateGameRequest& request,
                          v1::CreateGameResponse* response);

  // Where a request for `game_id` goes: the game here, or the address of the
  // host that runs it (redirect), or NOT_FOUND.
  struct Target {
    std::shared_ptr<Game> game;
    int seat = -1;         // Play: the token's seat
    std::string redirect;  // the game is elsewhere
  };
  // Play: the token must be one of the game's seat tokens.
  grpc::Status FindSeat(const std::string& token, const std::string& game_id, Target* out);
  // Spectate and GetGame: an administrator, spectator or seat token of the game.
  grpc::Status FindForViewing(const std::string& token, const std::string& game_id, Target* out);

  grpc::Status GetGame(const std::string& token, const std::string& game_id, v1::GameInfo* out);
  grpc::Status ListGames(const std::string& token, const v1::ListGamesRequest& request,
                         v1::ListGamesResponse* response);
  // GameHost.SeatsOf (administrator): the seats these identities hold in live
  // games of the ladder here, each not played now with a fresh token.
  grpc::Status SeatsOf(const std::string& token, const v1::SeatsOfRequest& request, v1::SeatsOfResponse* response);

  size_t live_games() const;
  // Blocks until the sink kept every completed game handed to it (and the
  // seats were told).
  void WaitStored();
  // The address this host advertises, when it is known only after binding.
  void SetAddress(const std::string& address);
  std::string address() const;
  // The duplicate sets' lockstep here (tests read its figures).
  const LockstepGroups& lockstep() const { return lockstep_; }

 private:
  // What a call needs of its token: the spectator token or better, or the
  // administrator token.
  enum class Access { kSpectator, kAdministrator };
  grpc::Status CheckToken(const std::string& token, Access access) const;
  grpc::Status Locate(const std::string& game_id, Target* out);
  void OnComplete(std::shared_ptr<Game> game, CompletedGame done);
  void OnKept(const std::shared_ptr<Game>& game, const std::string& id, EndReason reason);
  GameEnv MakeEnv();
  void OnFenced(const std::string& game_id);
  void OnVoided(const std::string& game_id, const std::string& reason, uint64_t fence);
  void LeaseLoop();
  bool MarkDone(const std::string& game_id);

  HostOptions options_;  // address guarded by mutex_
  const services::Clock* clock_;
  Timers* timers_;
  Executor* bots_;
  Executor* work_;
  CheckpointWriter* writer_ = nullptr;
  CompletedGameSink* sink_;
  GameDirectory* directory_;
  HostMetrics* metrics_;
  LockstepGroups lockstep_;  // before the games: theirs refer to it

  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Game>> live_;      // by id
  std::map<std::string, std::shared_ptr<Game>> finished_;  // by id, the last few
  std::deque<std::string> finished_order_;

  CheckpointStore* checkpoints_ = nullptr;
  std::map<std::string, uint64_t> awaiting_delivery_;  // stored, leases kept until delivered (under mutex_)
  // Games over here whose checkpoint could not be dropped yet (Redis unreachable
  // when Done was due): a void game, or one stored (and delivered). Their leases
  // are kept, and Done tried again, at every lease renewal until it succeeds, so
  // that no host takes one over to play it, or to store it a second time (under mutex_).
  struct Undropped {
    uint64_t fence = 0;
    bool void_game = false;
  };
  std::map<std::string, Undropped> undropped_;
  std::mutex takeover_mutex_;
  std::mutex lease_mutex_;
  std::condition_variable lease_cv_;
  bool lease_stopping_ = false;
  std::thread lease_thread_;
};

}  // namespace metropolis::gamehost
