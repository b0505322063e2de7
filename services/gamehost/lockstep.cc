#include "services/gamehost/lockstep.h"

#include <algorithm>

#include "lib/common/negative_control.h"

namespace metropolis::gamehost {

struct LockstepGroups::Group {
  std::mutex mutex;
  int size = 0;
  services::Millis created_at = 0;
  std::map<std::string, Seat> seats;  // by game id
  bool wait_for_missing = true;
  uint64_t generations = 0;
};

LockstepGroups::LockstepGroups(Options options, const services::Clock* clock) : options_(options), clock_(clock) {}

std::shared_ptr<LockstepGroups::Member> LockstepGroups::Join(const std::string& key, int size,
                                                             const std::string& game_id, uint32_t draws) {
  std::shared_ptr<Group> group;
  {
    std::lock_guard lock(mutex_);
    // Drop the groups whose games are all gone (a map of weak pointers).
    std::erase_if(groups_, [](const auto& entry) { return entry.second.expired(); });
    std::weak_ptr<Group>& slot = groups_[key];
    group = slot.lock();
    if (!group) {
      group = std::make_shared<Group>();
      group->size = size;
      group->created_at = clock_->Now();
      group->wait_for_missing = draws == 0;
      slot = group;
    }
  }
  uint64_t generation = 0;
  {
    std::lock_guard lock(group->mutex);
    Seat& seat = group->seats[game_id];
    seat.draws = draws;
    seat.done = false;
    seat.late = clock_->Now() - group->created_at >= options_.missing_wait_ms;
    seat.generation = generation = ++group->generations;
  }
  return std::shared_ptr<Member>(new Member(this, std::move(group), game_id, generation));
}

bool LockstepGroups::SlowestOther(const Group& group, const std::string& game_id, uint32_t* slowest) const {
  bool any = false;
  uint32_t least = UINT32_MAX;
  for (const auto& [id, seat] : group.seats) {
    if (id == game_id || seat.done || seat.late) continue;
    any = true;
    least = std::min(least, seat.draws);
  }
  // A rotation not here yet is at its start, while it is still waited for.
  if (group.wait_for_missing && int(group.seats.size()) < group.size &&
      clock_->Now() - group.created_at < options_.missing_wait_ms) {
    any = true;
    least = 0;
  }
  *slowest = least;
  return any;
}

uint32_t LockstepGroups::max_lead() const {
  std::lock_guard lock(stats_mutex_);
  return max_lead_;
}

size_t LockstepGroups::groups() const {
  std::lock_guard lock(mutex_);
  return size_t(std::count_if(groups_.begin(), groups_.end(), [](const auto& e) { return !e.second.expired(); }));
}

LockstepGroups::Member::~Member() { Leave(); }

bool LockstepGroups::Member::MayDraw(uint32_t next) {
  if (services::ProtectionRemoved("lockstep")) return true;
  std::lock_guard lock(group_->mutex);
  uint32_t slowest = 0;
  if (!groups_->SlowestOther(*group_, game_id_, &slowest)) return true;
  return next <= slowest + groups_->options_.lead;
}

void LockstepGroups::Member::Drew(uint32_t draws) {
  uint32_t lead = 0;
  {
    std::lock_guard lock(group_->mutex);
    group_->seats[game_id_].draws = draws;
    uint32_t slowest = 0;
    if (groups_->SlowestOther(*group_, game_id_, &slowest) && draws > slowest) lead = draws - slowest;
  }
  std::lock_guard stats(groups_->stats_mutex_);
  groups_->max_lead_ = std::max(groups_->max_lead_, lead);
}

void LockstepGroups::Member::Leave() {
  std::lock_guard lock(group_->mutex);
  Seat& seat = group_->seats[game_id_];
  if (seat.generation == generation_) seat.done = true;
}

}  // namespace metropolis::gamehost
