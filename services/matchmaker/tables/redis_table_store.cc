#include "services/matchmaker/tables/redis_table_store.h"

#include "lib/storage/redis_status.h"

namespace metropolis::matchmaker::tables {
namespace {

using storage::RedisReply;

// KEYS: the table. ARGV: the value expected, the new value, the ttl in ms.
// 1 when swapped, 0 when the table is gone or changed meanwhile.
constexpr const char* kSwap = R"lua(
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
)lua";

RedisReply Checked(RedisReply r) {
  if (r.is_error()) throw storage::RedisCommandError("table store: " + r.str);
  return r;
}

}  // namespace

RedisTableStore::RedisTableStore(storage::RedisPool* redis, std::string prefix)
    : redis_(redis), prefix_(std::move(prefix)) {}

grpc::Status RedisTableStore::Create(const std::string& id, const std::string& value, int64_t ttl_ms, bool* created) {
  return storage::RunRedis("table store", [&] {
    RedisReply r;
    redis_->With([&](storage::RedisConnection& c) {
      r = Checked(c.Run({"SET", Key(id), value, "NX", "PX", std::to_string(ttl_ms)}));
    });
    *created = !r.is_nil();
  });
}

grpc::Status RedisTableStore::Get(const std::string& id, std::string* value, bool* found) {
  return storage::RunRedis("table store", [&] {
    RedisReply r;
    redis_->With([&](storage::RedisConnection& c) { r = Checked(c.Run({"GET", Key(id)})); });
    *found = !r.is_nil();
    if (*found) *value = std::move(r.str);
  });
}

grpc::Status RedisTableStore::Swap(const std::string& id, const std::string& expected, const std::string& value,
                                   int64_t ttl_ms, bool* swapped) {
  return storage::RunRedis("table store", [&] {
    RedisReply r;
    redis_->With([&](storage::RedisConnection& c) {
      if (blind_swap_) {
        r = Checked(c.Run({"SET", Key(id), value, "XX", "PX", std::to_string(ttl_ms)}));
        r.integer = r.is_nil() ? 0 : 1;
        return;
      }
      r = Checked(c.Run({"EVAL", kSwap, "1", Key(id), expected, value, std::to_string(ttl_ms)}));
    });
    *swapped = r.integer == 1;
  });
}

}  // namespace metropolis::matchmaker::tables
