#include "services/gateway/response_layer.h"

#include "services/gateway/play_api.h"
#include "services/gateway/request_guard.h"

namespace metropolis::gateway {

bool IsPublicRead(std::string_view path) { return path.substr(0, 5) == "/api/" && !PlayApi::Handles(path); }

HeaderList ResponseHeaders(ResponseKind kind, std::string_view path, const HttpResponse& r) {
  HeaderList out;
  for (const auto& [name, value] : SecurityHeaders()) out.emplace_back(name, value);
  if (IsPublicRead(path)) out.emplace_back("Access-Control-Allow-Origin", "*");
  switch (kind) {
    case ResponseKind::kEventStream:
      out.emplace_back("Content-Type", "text/event-stream");
      out.emplace_back("Cache-Control", "no-store");
      // Proxies (nginx) would otherwise hold events back to fill their buffers.
      out.emplace_back("X-Accel-Buffering", "no");
      return out;
    case ResponseKind::kNotModified:
      break;
    case ResponseKind::kAnswer:
    case ResponseKind::kFile:
      out.emplace_back("Content-Type", r.content_type);
      break;
  }
  bool cache_control = false;
  for (const auto& [name, value] : r.headers) {
    out.emplace_back(name, value);
    cache_control |= name == "Cache-Control";
  }
  // API answers change with every game played.
  if (!cache_control) out.emplace_back("Cache-Control", "no-store");
  return out;
}

}  // namespace metropolis::gateway
