#include "services/gamehost/sink.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace metropolis::gamehost {
namespace {

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out.push_back(c);
  }
  return out + "\"";
}

bool WriteAll(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

bool FsyncPath(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags);
  if (fd < 0) return false;
  bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

// The engine's record with the host's fields appended: GameRecordFromJson skips
// keys it does not know, so the file replays as it is (metropolis-engine replay).
std::string CompletedGameToJson(const CompletedGame& g) {
  std::string out = GameRecordToJson(g.record);
  while (!out.empty() && (out.back() == '\n' || out.back() == '}')) out.pop_back();
  out += ",\"game_id\":" + Quote(g.game_id) + ",\"ladder\":" + Quote(g.ladder);
  out += ",\"season\":" + std::to_string(g.season) + ",\"tournament\":" + Quote(g.tournament);
  out += ",\"reason\":" + std::to_string(int(g.reason)) + ",\"vp\":[";
  for (size_t i = 0; i < g.vp.size(); ++i) out += (i ? "," : "") + std::to_string(g.vp[i]);
  out += "],\"fallback_decisions\":[";
  for (size_t i = 0; i < g.fallback_decisions.size(); ++i)
    out += (i ? "," : "") + std::to_string(g.fallback_decisions[i]);
  out += "],\"identity_ids\":[";
  for (size_t i = 0; i < g.identity_ids.size(); ++i) out += (i ? "," : "") + std::to_string(g.identity_ids[i]);
  out += "],\"forfeited\":[";
  for (size_t i = 0; i < g.forfeited.size(); ++i)
    out += std::string(i ? "," : "") + (g.forfeited[i] ? "true" : "false");
  out += "],\"created_unix_ms\":" + std::to_string(g.created_unix_ms);
  out += ",\"finished_unix_ms\":" + std::to_string(g.finished_unix_ms) + "}\n";
  return out;
}

FileSink::FileSink(std::string dir) : dir_(std::move(dir)) {}

bool FileSink::Open(std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) {
    *error = "completed-game directory " + dir_ + ": " + ec.message();
    return false;
  }
  return true;
}

std::string FileSink::PathOf(const std::string& game_id) const { return dir_ + "/" + game_id + ".json"; }

bool FileSink::Store(const CompletedGame& game, std::string* error) {
  const std::string path = PathOf(game.game_id);
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return true;  // idempotent: stored before
  const std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = "open " + tmp + ": " + std::strerror(errno);
    return false;
  }
  const bool written = WriteAll(fd, CompletedGameToJson(game)) && ::fsync(fd) == 0;
  const int saved_errno = errno;
  ::close(fd);
  if (!written) {
    *error = "write " + tmp + ": " + std::strerror(saved_errno);
    ::unlink(tmp.c_str());
    return false;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    *error = "rename " + tmp + ": " + std::strerror(errno);
    return false;
  }
  if (!FsyncPath(dir_, O_RDONLY | O_DIRECTORY)) {
    *error = "fsync " + dir_ + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace metropolis::gamehost
