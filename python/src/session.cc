#include "python/src/session.h"

#include "lib/chance/splitmix.h"

namespace metropolis::python {

uint64_t BoardSeed(uint64_t episode_seed) { return chance::MixSeed(episode_seed, 0xB0A4D); }
uint64_t ChanceSeed(uint64_t episode_seed) { return chance::MixSeed(episode_seed, 0xC4A2CE); }
uint64_t BotSeed(uint64_t episode_seed, int seat) { return chance::MixSeed(episode_seed, 0x5EA7 + uint64_t(seat)); }

std::unique_ptr<GameSession> GameSession::Make(const SessionOptions& options, std::string* error) {
  GameConfig check = options.config;
  if (options.random_board) check.board = RandomBoard(1);
  if (std::string e = ValidateConfig(check); !e.empty()) {
    *error = "configuration: " + e;
    return nullptr;
  }
  if (!options.bots.empty() && int(options.bots.size()) != options.config.num_seats) {
    *error = "bots: " + std::to_string(options.bots.size()) + " entries for " +
             std::to_string(options.config.num_seats) + " seats";
    return nullptr;
  }
  for (const std::string& spec : options.bots) {
    if (spec.empty()) continue;
    if (!bots::MakeBot(spec, error)) {
      *error = "bot '" + spec + "': " + *error;
      return nullptr;
    }
  }
  std::unique_ptr<GameSession> session(new GameSession(options));
  session->Reset(0);
  return session;
}

namespace {
// A valid configuration to construct the State with before the first Reset().
GameConfig FirstConfig(const SessionOptions& options) {
  GameConfig c = options.config;
  if (options.random_board) c.board = RandomBoard(1);
  return c;
}
}  // namespace

GameSession::GameSession(const SessionOptions& options)
    : options_(options), config_(FirstConfig(options)), state_(config_) {
  const int n = config_.num_seats;
  options_.bots.resize(size_t(n));
  bool any_bot = false;
  for (const std::string& spec : options_.bots) {
    std::string error;
    bots_.push_back(spec.empty() ? nullptr : bots::MakeBot(spec, &error));
    any_bot |= !spec.empty();
  }
  bot_streams_.assign(size_t(n), 0);
  track_ = options_.knowledge || any_bot;
  for (int seat = 0; seat < n; ++seat) knowledge_.emplace_back(seat);
}

void GameSession::Reset(uint64_t seed) {
  seed_ = seed;
  config_ = options_.config;
  if (options_.random_board) config_.board = RandomBoard(BoardSeed(seed));
  std::string error;
  const bool ok = NewGame(config_, &state_, &error);  // checked by Make()
  (void)ok;
  chance_ = std::make_unique<chance::ChanceStreams>(ChanceSeed(seed));
  for (size_t seat = 0; seat < bot_streams_.size(); ++seat) bot_streams_[seat] = BotSeed(seed, int(seat));
  if (track_)
    for (KnowledgeTracker& k : knowledge_) k.Reset(state_);
  actions_.clear();
  outside_decisions_ = 0;
  bug_.clear();
  Advance();
}

void GameSession::Step(const Action& action) {
  events_.clear();
  state_.ApplyUnchecked(action, &events_);
  actions_.push_back(action);
  if (!track_) return;
  for (const Event& e : events_)
    for (KnowledgeTracker& k : knowledge_) k.Observe(MaskEvent(e, k.viewer()));
}

void GameSession::Advance() {
  while (!state_.IsTerminal()) {
    const int player = state_.CurrentPlayer();
    if (player == kChancePlayer) {
      Step(chance_->Sample(state_));
      continue;
    }
    bots::Bot* bot = bots_[size_t(player)].get();
    if (!bot) return;
    const View view = MakeView(state_, player, &knowledge_[size_t(player)]);
    const Action action = bot->Choose(view, &bot_streams_[size_t(player)]);
    // A bot's choice is checked like any seat's: a bot bug stops the game
    // with the rule it broke instead of corrupting the state.
    if (std::string e = state_.CheckAction(action); !e.empty()) {
      bug_ = "bot '" + options_.bots[size_t(player)] + "' in seat " + std::to_string(player) + " chose '" +
             ActionToString(action) + "': " + e;
      return;
    }
    Step(action);
  }
}

std::string GameSession::Apply(const Action& action) {
  if (!bug_.empty()) return bug_;
  if (state_.IsTerminal()) return "the game is over";
  if (std::string e = state_.CheckAction(action); !e.empty()) return e;
  ++outside_decisions_;
  Step(action);
  Advance();
  return bug_;
}

void GameSession::ApplyLegal(const Action& action) {
  ++outside_decisions_;
  Step(action);
  Advance();
}

View GameSession::ViewOf(int seat) const {
  return MakeView(state_, seat, track_ ? &knowledge_[size_t(seat)] : nullptr);
}

GameRecord GameSession::Record() const {
  GameRecord r;
  r.config = config_;
  r.actions = actions_;
  r.seed = seed_;
  if (state_.IsTerminal()) r.winner = state_.Winner();
  for (const std::string& spec : options_.bots) r.players.push_back(spec.empty() ? "outside" : spec);
  return r;
}

}  // namespace metropolis::python
