// The State's construction, dispatch and read-only computations. The rules
// themselves are split by concern: rules_legal.cc (what may be done),
// rules_apply.cc (doing it), rules_roll.cc (resolving a roll),
// rules_chance.cc (chance outcomes), rules_check.cc (explaining illegal
// actions), validate.cc (the consistency check).
#include "engine/state.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "engine/rules_internal.h"
#include "engine/state_editor.h"
#include "engine/topology.h"

namespace metropolis {

State::State(const GameConfig& config) {
  options_ = config.options;
  board_ = config.board;
  num_seats_ = uint8_t(config.num_seats);
  road_owner_.fill(kNoSeat);
  building_owner_.fill(kNoSeat);
  building_.fill(kNoBuilding);
  knight_owner_.fill(kNoSeat);
  for (int h = 0; h < kNumHexes; ++h)
    if (board_.terrain[h] == kDesert) robber_ = int8_t(h);
  const bool base = options_.ruleset == Ruleset::kBase;
  for (int c = 0; c < kNumCardTypes; ++c) bank_[c] = int16_t(CardSupply(c, options_));
  if (base) dev_deck_ = kDevCardCounts;  // BG-1; no progress decks
  for (int t = 0; t < kNumTracks && !base; ++t) {
    ProgressDeck& d = decks_[t];
    for (int k = 0; k < TrackNumKinds(t); ++k) {
      d.unseen[k] = uint8_t(ProgressCardCount(TrackFirstCard(t) + k, options_));
      d.unseen_total = uint8_t(d.unseen_total + d.unseen[k]);
    }
  }
  for (int p = 0; p < kMaxSeats; ++p) players_[p].progress.fill(kNoProgressCard);
  RulesImpl::ComputeHarborNodes(*this);
  phase_ = Phase::kSetup;
  if (options_.start_player == StartPlayer::kRoll) {
    RulesImpl::Push(*this, PendingKind::kStartPlayer, kNoSeat);
  }
}

State::State()
    : State([] {
        GameConfig c;
        c.board = DefaultBoard();
        return c;
      }()) {}

bool NewGame(const GameConfig& config, State* state, std::string* error) {
  const std::string e = ValidateConfig(config);
  if (!e.empty()) {
    if (error) *error = e;
    return false;
  }
  *state = State(config);
  return true;
}

int State::SetupSeat() const { return RulesImpl::SetupSeat(*this, setup_step_); }

std::vector<Action> State::LegalActions() const {
  ActionList list;
  LegalActions(&list);
  return std::vector<Action>(list.begin(), list.end());
}

void State::LegalActions(ActionList* out) const {
  out->clear();
  if (phase_ == Phase::kGameOver) return;
  if (pending_size_ > 0) {
    const Pending& p = pending_[pending_size_ - 1];
    if (CurrentPlayer() == kChancePlayer) return;
    RulesImpl::LegalPending(*this, p, out);
    return;
  }
  switch (phase_) {
    case Phase::kSetup:
      RulesImpl::LegalSetup(*this, out);
      break;
    case Phase::kBeforeRoll:
      out->push(Action::Roll());
      if (RulesImpl::IsBase(*this))
        RulesImpl::LegalDevCards(*this, false, out);  // BG-5
      else
        RulesImpl::LegalAlchemist(*this, out);  // TRN-2
      break;
    case Phase::kAction:
      RulesImpl::LegalActionPhase(*this, out);
      break;
    case Phase::kGameOver:
      break;
  }
}

std::string State::Apply(const Action& action, std::vector<Event>* events) {
  std::string error = CheckAction(action);
  if (!error.empty()) return error;
  ApplyUnchecked(action, events);
  return {};
}

// Out of line and cold: hosts ask for events, simulations and search do not,
// and keeping this apart keeps ApplyUnchecked's frame small.
[[gnu::noinline, gnu::cold]] void RulesImpl::RecordAction(const State& s, const Action& action, Events* events) {
  const int actor = s.CurrentPlayer();
  Event e;
  e.type = EventType::kAction;
  e.seat = int8_t(actor == kChancePlayer ? -2 : actor);
  e.action = action;
  // Card identities of steals, draws and limit discards are private (18).
  if (action.type == ActionType::kChanceSteal) {
    const Pending& p = s.pending_[s.pending_size_ - 1];
    e.private_to = uint8_t((1u << p.seat) | (1u << p.a));
  } else if (action.type == ActionType::kChanceDraw || action.type == ActionType::kChanceDev) {
    e.private_to = uint8_t(1u << s.pending_[s.pending_size_ - 1].seat);
  } else if (action.type == ActionType::kDiscardProgress) {
    e.private_to = uint8_t(1u << actor);
  } else if (action.type == ActionType::kTakeProgress || action.type == ActionType::kTakeCard ||
             action.type == ActionType::kGiveCard) {
    // Seen by the two seats involved (section 18); the other is on the stack.
    const Pending& p = s.pending_[s.pending_size_ - 1];
    const int other = p.kind == PendingKind::kDefenderTake ? actor : p.a;
    e.private_to = uint8_t((1u << actor) | (1u << other));
  }
  events->push_back(e);
}

void State::ApplyUnchecked(const Action& action, std::vector<Event>* events) {
  if (events) RulesImpl::RecordAction(*this, action, events);
  if (IsChanceAction(action.type)) {
    RulesImpl::ApplyChance(*this, action, events);
  } else if (pending_size_ > 0) {
    RulesImpl::ApplyPending(*this, action, events);
  } else if (phase_ == Phase::kSetup) {
    RulesImpl::ApplySetup(*this, action, events);
  } else if (action.type == ActionType::kEndTurn) {
    // The two most frequent actions of a turn, without ApplyActionPhase's frame.
    RulesImpl::EndTurn(*this, events);
  } else if (action.type == ActionType::kRoll) {
    RulesImpl::Push(*this, PendingKind::kDice, current_, 0);
  } else {
    RulesImpl::ApplyActionPhase(*this, action, events);
  }
  RulesImpl::Advance(*this, events);
  RulesImpl::CheckWin(*this, events);
  ++actions_;
  if (phase_ != Phase::kGameOver && actions_ >= options_.max_actions) {
    phase_ = Phase::kGameOver;
    RulesImpl::ClearPending(*this);
    RulesImpl::RevealDevCards(*this, events);
    RulesImpl::Emit(events, EventType::kGameOver, -1);
  }
#if defined(METROPOLIS_VALIDATE_EVERY_STEP)
  if (std::string err = Validate(); !err.empty()) {
    fprintf(stderr, "Validate() failed after %s: %s\n", ActionToString(action).c_str(), err.c_str());
    abort();
  }
#endif
}

std::array<double, kMaxSeats> State::Returns() const {
  std::array<double, kMaxSeats> r{};
  if (winner_ != kNoSeat) r[winner_] = 1.0;
  return r;
}

int State::HandLimit(int seat) const {
  int walls_on_board = 0;
  METROPOLIS_FOR_BITS(v, players_[seat].cities) walls_on_board += (node_flags_[v] & kWall) ? 1 : 0;
  return 7 + 2 * walls_on_board;
}

int State::metropolis_at(int node) const {
  for (int t = 0; t < kNumTracks; ++t)
    if (metropolis_node_[t] == node) return t;
  return -1;
}

int State::ComputeVictoryPoints(int seat) const {
  const PlayerState& p = players_[seat];
  int vp = std::popcount(p.settlements) + 2 * std::popcount(p.cities);
  for (int t = 0; t < kNumTracks; ++t)
    if (metropolis_owner_[t] == seat) vp += 2;
  if (longest_road_ == seat) vp += 2;
  if (merchant_owner_ == seat) vp += 1;
  vp += std::popcount(unsigned(p.vp_cards)) + p.defender;
  if (largest_army_ == seat) vp += 2;  // BG-6
  vp += p.dev[kDevVictoryPoint];       // BG-5: hidden, but they count
  return vp;
}

void StateEditor::RecomputeDerived() {
  State& s = *s_;
  for (int p = 0; p < kMaxSeats; ++p) {
    PlayerState& ps = s.players_[p];
    ps.settlements = ps.cities = ps.knights = ps.roads_lo = ps.roads_hi = 0;
    int settlements = 0, cities = 0, roads = 0, walls = 0;
    std::array<int, kMaxKnightLevel> knights{};
    for (int v = 0; v < kNumNodes; ++v) {
      if (s.building_owner_[v] == p) {
        if (s.building_[v] == kSettlement) {
          ps.settlements |= uint64_t(1) << v;
          ++settlements;
        } else if (s.building_[v] == kCity) {
          ps.cities |= uint64_t(1) << v;
          ++cities;
          if (s.node_flags_[v] & kWall) ++walls;
        }
      }
      if (s.knight_owner_[v] == p && s.knight_level_[v] >= 1 && s.knight_level_[v] <= kMaxKnightLevel) {
        ps.knights |= uint64_t(1) << v;
        ++knights[s.knight_level_[v] - 1];
      }
    }
    for (int e = 0; e < kNumEdges; ++e) {
      if (s.road_owner_[e] != p) continue;
      ++roads;
      if (e < 64)
        ps.roads_lo |= uint64_t(1) << e;
      else
        ps.roads_hi |= uint64_t(1) << (e - 64);
    }
    ps.settlements_left = int8_t(5 - settlements);
    ps.cities_left = uint8_t(4 - cities);
    ps.roads_left = uint8_t(15 - roads);
    ps.walls_left = uint8_t(3 - walls);
    for (int l = 0; l < kMaxKnightLevel; ++l) ps.knights_left[l] = uint8_t(2 - knights[l]);
  }
  for (int p = 0; p < kMaxSeats; ++p) s.players_[p].road_nodes = RulesImpl::RoadNodes(s, p);
  RulesImpl::ComputeHarborNodes(s);
  for (int p = 0; p < kMaxSeats; ++p) s.players_[p].harbors = RulesImpl::HarborTypes(s, s.players_[p].buildings());
  for (int p = 0; p < s.num_seats_; ++p) s.players_[p].road_length = uint8_t(s.ComputeRoadLength(p));
  for (int p = 0; p < s.num_seats_; ++p) s.players_[p].vp = uint8_t(s.ComputeVictoryPoints(p));
}

}  // namespace metropolis
