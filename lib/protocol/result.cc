// A finished (or stopped) game's State -> v1::GameResult.
#include "lib/protocol/convert.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::protocol {

void ResultToProto(const State& s, v1::GameResult* out) {
  out->Clear();
  if (s.Winner() != kNoSeat)
    out->set_reason(v1::END_REASON_WON);
  else if (s.IsTerminal())
    out->set_reason(v1::END_REASON_LENGTH_CAP);
  else
    out->set_reason(v1::END_REASON_ABORTED);
  out->set_winner(s.Winner());
  // From the pieces and cards, hidden victory point cards included: once the
  // game is over they are public (BG-9).
  for (int p = 0; p < s.num_seats(); ++p) out->add_vp(uint32_t(s.ComputeVictoryPoints(p)));
  out->set_actions(s.action_count());
  out->set_turns(uint32_t(s.turn_number()));
}

}  // namespace metropolis::protocol
