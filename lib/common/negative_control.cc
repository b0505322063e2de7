#include "lib/common/negative_control.h"

#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

#include "lib/common/log.h"

namespace metropolis::services {

#if METROPOLIS_NEGATIVE_CONTROLS
namespace {

std::set<std::string, std::less<>> ReadRemoved() {
  std::set<std::string, std::less<>> out;
  const char* env = std::getenv("METROPOLIS_REMOVE_PROTECTION");
  std::string_view list = env ? env : "";
  while (!list.empty()) {
    const size_t comma = list.find(',');
    if (std::string_view name = list.substr(0, comma); !name.empty()) out.emplace(name);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  for (const std::string& name : out)
    LogWarning("NEGATIVE CONTROL: a protection is switched off; never run this in production", {{"protection", name}});
  return out;
}

}  // namespace

bool ProtectionRemoved(std::string_view name) {
  static const std::set<std::string, std::less<>> removed = ReadRemoved();
  return removed.count(name) > 0;
}
#else
bool ProtectionRemoved(std::string_view) { return false; }
#endif

}  // namespace metropolis::services
