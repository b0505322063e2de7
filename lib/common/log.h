// Structured logs: one line per event on stderr, as key=value pairs that both
// people and log collectors read ("ts=... level=info svc=gamehost msg=... game=g1").
// Lines written inside a LogContext (request_id.h) also carry its request_id= and game=.
// Thread-safe; a line is written with one write() so lines never interleave.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace metropolis::services {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

// Process-wide settings, set once at start-up by main().
void SetLogService(std::string_view service);
void SetLogLevel(LogLevel level);
// "debug", "info", "warning" or "error"; false for anything else.
bool ParseLogLevel(std::string_view text, LogLevel* out);

using LogField = std::pair<std::string_view, std::string>;
void Log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields = {});
// The same with fields gathered at run time.
using LogFieldList = std::vector<LogField>;
void Log(LogLevel level, std::string_view message, const LogFieldList& fields);

inline void LogInfo(std::string_view m, std::initializer_list<LogField> f = {}) { Log(LogLevel::kInfo, m, f); }
inline void LogWarning(std::string_view m, std::initializer_list<LogField> f = {}) { Log(LogLevel::kWarning, m, f); }
inline void LogError(std::string_view m, std::initializer_list<LogField> f = {}) { Log(LogLevel::kError, m, f); }
inline void LogDebug(std::string_view m, std::initializer_list<LogField> f = {}) { Log(LogLevel::kDebug, m, f); }

}  // namespace metropolis::services
