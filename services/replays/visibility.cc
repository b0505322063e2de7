#include "services/replays/visibility.h"

namespace metropolis::replays {

bool Visible(const std::string& game_id, const std::string& tournament, const std::vector<Reveal>& reveals) {
  if (tournament.empty()) return true;
  for (const Reveal& r : reveals)
    if (r.tournament == tournament && (r.game_id.empty() || r.game_id == game_id)) return true;
  return false;
}

std::string HiddenMessage(const std::string& game_id) {
  return "game " + game_id +
         " is hidden until its tournament reveals it (a duplicate set: once every rotation has "
         "finished)";
}

}  // namespace metropolis::replays
