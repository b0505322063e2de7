// Which host runs which game. A host registers the games it creates; a seat or
// spectator that reaches another host is told where to go. Here the directory
// lives in memory (hosts of one process share it in tests); with checkpoints
// the leases in the shared store take its place.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "services/gamehost/checkpoint.h"

namespace metropolis::gamehost {

class GameDirectory {
 public:
  virtual ~GameDirectory() = default;
  virtual void Register(const std::string& game_id, const std::string& host) = 0;
  virtual std::optional<std::string> Lookup(const std::string& game_id) const = 0;
};

class InMemoryDirectory final : public GameDirectory {
 public:
  void Register(const std::string& game_id, const std::string& host) override {
    std::lock_guard lock(mutex_);
    hosts_[game_id] = host;
  }
  std::optional<std::string> Lookup(const std::string& game_id) const override {
    std::lock_guard lock(mutex_);
    auto it = hosts_.find(game_id);
    if (it == hosts_.end()) return std::nullopt;
    return it->second;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::string> hosts_;
};

// With checkpoints, the game's lease says which host runs it.
class CheckpointDirectory final : public GameDirectory {
 public:
  explicit CheckpointDirectory(CheckpointStore* store) : store_(store) {}
  void Register(const std::string&, const std::string&) override {}  // the lease is taken on creation
  std::optional<std::string> Lookup(const std::string& game_id) const override { return store_->Owner(game_id); }

 private:
  CheckpointStore* store_;
};

}  // namespace metropolis::gamehost
