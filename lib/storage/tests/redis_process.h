// A redis-server of a test's own, on a free loopback port, killed when the test ends:
// for tests that need a Redis in a particular role (a replica, a primary with a
// replica, a sentinel) rather than the shared one the test command starts.
#pragma once

#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "lib/storage/redis.h"

namespace metropolis::storage::testing {

inline int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    close(fd);
    return 0;
  }
  close(fd);
  return ntohs(addr.sin_port);
}

class RedisProcess {
 public:
  // `args` come after `redis-server` (the first may be a config file); --bind,
  // --port and quiet logging are added.
  explicit RedisProcess(std::vector<std::string> args, int port = FreePort()) : port_(port) {
    // A folder of its own: a replica writes the primary's data there when it syncs.
    char dir[] = "/tmp/metropolis-redis.XXXXXX";
    if (mkdtemp(dir) != nullptr) dir_ = dir;
    args.insert(args.end(), {"--bind", "127.0.0.1", "--port", std::to_string(port_), "--loglevel", "warning"});
    if (!dir_.empty()) args.insert(args.end(), {"--dir", dir_});
    pid_ = fork();
    if (pid_ == 0) {
      std::vector<char*> argv{const_cast<char*>("redis-server")};
      for (std::string& arg : args) argv.push_back(arg.data());
      argv.push_back(nullptr);
      execvp("redis-server", argv.data());
      _exit(127);
    }
  }
  ~RedisProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  RedisProcess(const RedisProcess&) = delete;
  RedisProcess& operator=(const RedisProcess&) = delete;

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  // Waits until it answers PING (a few seconds at most).
  bool Up() const {
    for (int i = 0; i < 200; ++i) {
      try {
        RedisConnection c(address(), 500);
        if (c.Run({"PING"}).str == "PONG") return true;
      } catch (const RedisUnavailable&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return false;
  }

 private:
  int port_;
  std::string dir_;
  pid_t pid_ = -1;
};

}  // namespace metropolis::storage::testing
