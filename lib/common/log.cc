#include "lib/common/log.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <mutex>

#include "lib/common/request_id.h"

namespace metropolis::services {
namespace {

std::atomic<int> g_level{int(LogLevel::kInfo)};
std::mutex g_service_mutex;
std::string g_service = "metropolis";

const char* LevelName(LogLevel l) {
  switch (l) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "info";
}

// Values with spaces, quotes or '=' are quoted so that a line splits on spaces.
void AppendValue(std::string* out, std::string_view v) {
  bool quote = v.empty();
  for (char c : v) quote |= (c == ' ' || c == '"' || c == '=' || c == '\n' || c == '\\');
  if (!quote) {
    out->append(v);
    return;
  }
  out->push_back('"');
  for (char c : v) {
    if (c == '"' || c == '\\') out->push_back('\\');
    if (c == '\n') {
      out->append("\\n");
      continue;
    }
    out->push_back(c);
  }
  out->push_back('"');
}

}  // namespace

void SetLogService(std::string_view service) {
  std::lock_guard lock(g_service_mutex);
  g_service = std::string(service);
}

void SetLogLevel(LogLevel level) { g_level = int(level); }

bool ParseLogLevel(std::string_view text, LogLevel* out) {
  for (LogLevel l : {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarning, LogLevel::kError}) {
    if (text == LevelName(l)) {
      *out = l;
      return true;
    }
  }
  return false;
}

namespace {

void LogFields(LogLevel level, std::string_view message, const LogField* begin, const LogField* end) {
  if (int(level) < g_level.load(std::memory_order_relaxed)) return;
  const auto now = std::chrono::system_clock::now();
  const std::time_t secs = std::chrono::system_clock::to_time_t(now);
  const int millis = int(std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char ts[64];
  std::snprintf(ts, sizeof ts, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  std::string line = "ts=";
  line += ts;
  line += " level=";
  line += LevelName(level);
  line += " svc=";
  {
    std::lock_guard lock(g_service_mutex);
    line += g_service;
  }
  line += " msg=";
  AppendValue(&line, message);
  for (const LogField* field = begin; field != end; ++field) {
    const auto& [key, value] = *field;
    line.push_back(' ');
    line.append(key);
    line.push_back('=');
    AppendValue(&line, value);
  }
  // The request and game of the work this thread does (request_id.h), unless
  // the line names them itself.
  if (const LogContext* context = CurrentLogContext()) {
    auto append = [&](std::string_view key, const std::string& value) {
      if (value.empty()) return;
      for (const LogField* field = begin; field != end; ++field)
        if (field->first == key) return;
      line.push_back(' ');
      line.append(key);
      line.push_back('=');
      AppendValue(&line, value);
    };
    append("request_id", context->request_id());
    append("game", context->game_id());
  }
  line.push_back('\n');
  // One write per line: concurrent lines never interleave.
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace

void Log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields) {
  LogFields(level, message, fields.begin(), fields.end());
}

void Log(LogLevel level, std::string_view message, const LogFieldList& fields) {
  LogFields(level, message, fields.data(), fields.data() + fields.size());
}

}  // namespace metropolis::services
