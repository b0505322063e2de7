// Field-by-field write access to a State, for the code that builds states
// other than by playing: the notation parser and the view sampler (which fills
// in hidden cards). Everything else changes a State only through Apply(), so
// after editing, call State::Validate() and RecomputeDerived().
#pragma once

#include "engine/state.h"

namespace metropolis {

class StateEditor {
 public:
  explicit StateEditor(State* s) : s_(s) {}

  RulesOptions& options() { return s_->options_; }
  Board& board() { return s_->board_; }
  uint8_t& num_seats() { return s_->num_seats_; }
  Phase& phase() { return s_->phase_; }
  int8_t& current() { return s_->current_; }
  int8_t& start() { return s_->start_; }
  int8_t& winner() { return s_->winner_; }
  uint8_t& setup_step() { return s_->setup_step_; }
  int8_t& last_setup_node() { return s_->last_setup_node_; }
  uint16_t& turn() { return s_->turn_; }
  uint32_t& actions() { return s_->actions_; }
  std::array<int8_t, kNumEdges>& road_owner() { return s_->road_owner_; }
  std::array<int8_t, kNumNodes>& building_owner() { return s_->building_owner_; }
  std::array<uint8_t, kNumNodes>& building() { return s_->building_; }
  std::array<uint8_t, kNumNodes>& node_flags() { return s_->node_flags_; }
  std::array<int8_t, kNumNodes>& knight_owner() { return s_->knight_owner_; }
  std::array<uint8_t, kNumNodes>& knight_level() { return s_->knight_level_; }
  std::array<uint8_t, kNumNodes>& knight_flags() { return s_->knight_flags_; }
  int8_t& robber() { return s_->robber_; }
  int8_t& merchant_hex() { return s_->merchant_hex_; }
  int8_t& merchant_owner() { return s_->merchant_owner_; }
  std::array<int8_t, kNumTracks>& metropolis_owner() { return s_->metropolis_owner_; }
  std::array<int8_t, kNumTracks>& metropolis_node() { return s_->metropolis_node_; }
  int8_t& longest_road() { return s_->longest_road_; }
  uint8_t& barbarians() { return s_->barbarians_; }
  bool& first_attack_done() { return s_->first_attack_done_; }
  uint16_t& attacks() { return s_->attacks_; }
  uint8_t& dice_yellow() { return s_->dice_yellow_; }
  uint8_t& dice_red() { return s_->dice_red_; }
  uint8_t& dice_event() { return s_->dice_event_; }
  PlayerState& player(int seat) { return s_->players_[seat]; }
  std::array<int16_t, kNumCardTypes>& bank() { return s_->bank_; }
  ProgressDeck& deck(int track) { return s_->decks_[track]; }
  uint8_t& offers_this_turn() { return s_->offers_this_turn_; }
  TradeState& trade() { return s_->trade_; }
  TurnEffects& effects() { return s_->effects_; }
  uint8_t& pending_size() { return s_->pending_size_; }
  std::array<uint8_t, kNumDevKinds>& dev_deck() { return s_->dev_deck_; }
  std::array<uint8_t, kNumDevKinds>& dev_discarded() { return s_->dev_discarded_; }
  std::array<uint8_t, kNumDevKinds>& dev_bought() { return s_->dev_bought_; }
  bool& dev_played() { return s_->dev_played_; }
  int8_t& largest_army() { return s_->largest_army_; }
  std::array<Pending, State::kMaxPending>& pending() { return s_->pending_; }

  // After pieces were edited: rebuild the per-player node and edge masks from
  // the per-node arrays, recount supplies, road lengths, Longest Road and VP.
  // Supplies of pieces are recounted from the board (the totals of 1.4).
  void RecomputeDerived();

 private:
  State* s_;
};

}  // namespace metropolis
