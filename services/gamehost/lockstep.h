// Rotations in lockstep (docs/TOURNAMENTS.md, "Rotations in lockstep"): the
// games of a duplicate set share their chance, so a bot that played one
// rotation ahead of another could know the other's dice and cards. The set's
// rotations are created together on one host and each is held back at its next
// chance draw while it is more than `lead` draws ahead of the slowest other
// rotation still playing. A held game sends nothing and asks nobody, so no
// clock runs against its seats; the slowest game is never held, so the group
// always moves (its own decisions have deadlines).
//
// A rotation missing from the host (not yet created, or created elsewhere after
// its host failed) counts as at draw 0 for `missing_wait_ms` from the group's
// first game; after that the group goes on without it, and a rotation that
// joins so late is not waited for. A group begun by a game that has drawn
// already (taken over from a failed host) waits for no missing rotation: the
// others are elsewhere, or over. Groups live in one host's memory: a set
// split across hosts by a takeover is in lockstep only per host (documented).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "lib/common/clock.h"

namespace metropolis::gamehost {

class LockstepGroups {
 public:
  struct Options {
    uint32_t lead = 2;                          // draws a game may be ahead of the slowest other
    services::Millis missing_wait_ms = 60'000;  // how long a rotation not on this host is waited for
  };
  class Member;

  LockstepGroups(Options options, const services::Clock* clock);

  // Game `game_id` joins group `key` (the games sharing one chance seed) of
  // `size` games, having drawn `draws` times already (a game taken over).
  std::shared_ptr<Member> Join(const std::string& key, int size, const std::string& game_id, uint32_t draws);

  // The largest lead any game had over the slowest other game of its group
  // when it drew, over this host's life: at most `lead` while the protection
  // holds (the tests read it).
  uint32_t max_lead() const;
  size_t groups() const;

 private:
  struct Group;
  struct Seat {
    uint32_t draws = 0;
    bool done = false;
    bool late = false;        // joined after the wait for it ended: nobody waits for it
    uint64_t generation = 0;  // of its last Join: an older Member of the same game leaves nothing
  };
  friend class Member;
  // The smallest draw count among `group`'s other games still counted, and
  // whether there is one; with group->mutex held.
  bool SlowestOther(const Group& group, const std::string& game_id, uint32_t* slowest) const;

  const Options options_;
  const services::Clock* clock_;
  mutable std::mutex mutex_;
  std::map<std::string, std::weak_ptr<Group>> groups_;
  mutable std::mutex stats_mutex_;
  uint32_t max_lead_ = 0;
};

// One game's place in its group; leaving (or destroying it) counts the game out.
class LockstepGroups::Member {
 public:
  ~Member();
  // Whether the game may make its draw number `next` (1 for the first) now.
  bool MayDraw(uint32_t next);
  // The game made its `draws`th draw.
  void Drew(uint32_t draws);
  // The game is over (finished, void or gone to another host): not waited for.
  void Leave();

 private:
  friend class LockstepGroups;
  Member(LockstepGroups* groups, std::shared_ptr<Group> group, std::string game_id, uint64_t generation)
      : groups_(groups), group_(std::move(group)), game_id_(std::move(game_id)), generation_(generation) {}
  LockstepGroups* groups_;
  std::shared_ptr<Group> group_;
  std::string game_id_;
  uint64_t generation_;
};

}  // namespace metropolis::gamehost
