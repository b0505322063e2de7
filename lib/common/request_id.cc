#include "lib/common/request_id.h"

#include <grpcpp/client_context.h>
#include <grpcpp/server_context.h>

#include <cstring>
#include <random>

#include "engine/hex.h"

namespace metropolis::services {
namespace {

thread_local LogContext* g_current = nullptr;

std::string Metadata(const grpc::ServerContextBase& context, const char* key) {
  const auto& metadata = context.client_metadata();
  const auto it = metadata.find(key);
  if (it == metadata.end()) return {};
  std::string value(it->second.data(), it->second.size());
  return ValidRequestId(value) ? value : std::string();
}

}  // namespace

std::string NewRequestId() {
  static thread_local std::mt19937_64 rng{(uint64_t(std::random_device{}()) << 32) ^ std::random_device{}()};
  const uint64_t bits = rng();
  uint8_t bytes[8];
  std::memcpy(bytes, &bits, sizeof bytes);
  return HexOf(bytes, sizeof bytes);
}

bool ValidRequestId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '_' || c == '.' || c == ':';
    if (!ok) return false;
  }
  return true;
}

std::string IncomingRequestId(const grpc::ServerContextBase& context) { return Metadata(context, kRequestIdMetadata); }

std::string IncomingGameId(const grpc::ServerContextBase& context) { return Metadata(context, kGameIdMetadata); }

LogContext::LogContext(std::string request_id, std::string game_id)
    : request_id_(std::move(request_id)), game_id_(std::move(game_id)), previous_(g_current) {
  g_current = this;
}

LogContext::~LogContext() { g_current = previous_; }

namespace {

std::string RequestIdOrNew(const grpc::ServerContextBase& context) {
  std::string id = IncomingRequestId(context);
  return id.empty() ? NewRequestId() : id;
}

}  // namespace

// A game id from a request is the caller's: an odd one (too long, spaces) is
// left off the logs rather than written out.
CallLogContext::CallLogContext(const grpc::ServerContextBase& context, std::string game_id)
    : LogContext(RequestIdOrNew(context), ValidRequestId(game_id) ? std::move(game_id) : IncomingGameId(context)) {}

const LogContext* CurrentLogContext() { return g_current; }

std::string PropagateRequestId(grpc::ClientContext* context, std::string_view game_id) {
  const LogContext* current = g_current;
  const std::string id = current ? current->request_id() : NewRequestId();
  context->AddMetadata(kRequestIdMetadata, id);
  const std::string game = !game_id.empty() ? std::string(game_id) : current ? current->game_id() : std::string();
  if (ValidRequestId(game)) context->AddMetadata(kGameIdMetadata, game);
  return id;
}

}  // namespace metropolis::services
