// Which host runs which game. A host registers the games it creates; a seat or
// spectator that reaches another host is told where to go. Here the directory
// lives in memory (hosts of one process share it in tests); a shared store
// takes its place when games move between machines.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

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

}  // namespace metropolis::gamehost
