// A server program's storage: the settings of its PostgreSQL and Redis (--pg,
// --redis, --redis-prefix, the Redis login, --connections), read and checked, and
// the pools opened from them (a Redis address is HOST:PORT or a sentinel address,
// redis_sentinel.h). StorageServerProgram is a ServerProgram
// (lib/common/server_program.h) with them: --pg and --redis after --listen,
// --connections after the service's own settings, the pools opened by Start().
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "lib/common/server_program.h"
#include "lib/common/settings.h"
#include "lib/storage/pg_pool.h"
#include "lib/storage/redis.h"

namespace metropolis::storage {

// --pg: a PostgreSQL connection string.
inline constexpr char kPostgresHelp[] = "PostgreSQL connection string (required; run metropolis-migrate first)";
void AddPostgresSetting(services::Settings* settings, const std::string& help = kPostgresHelp);

// --redis and --redis-prefix, and with a login --redis-user and --redis-password.
struct RedisSettings {
  std::string address = "Redis address (required): HOST:PORT or sentinel:NAME@HOST:PORT,...";
  std::string prefix = "prefix of the Redis keys, to share one Redis";
  // What --redis-user must be allowed to do ("it must read and write ..."); empty:
  // no login settings, the pool sends no AUTH.
  std::string user_needs{};
};
void AddRedisSettings(services::Settings* settings, const RedisSettings& help);

struct RedisOptions {
  std::string address{};  // HOST:PORT or sentinel:NAME@HOST:PORT,...
  std::string prefix{};   // of every key
  RedisCredentials login{};
};
// Reads --redis (which must be given), --redis-prefix and, when `declared` has
// them, the login; false with *error for a malformed address or a user without a
// password.
bool ReadRedisSettings(const services::Settings& settings, const RedisSettings& declared, RedisOptions* out,
                       std::string* error);

// --connections: the size of each pool, 1 to 256.
struct ConnectionsSetting {
  static constexpr char kPostgres[] = "PostgreSQL connections; calls beyond them wait for one";
  static constexpr char kPostgresAndRedis[] = "PostgreSQL and Redis connections (each); calls beyond them wait for one";
  int connections = 8;  // the default
  std::string help = kPostgres;
};
void AddConnectionsSetting(services::Settings* settings, const ConnectionsSetting& connections);
bool ReadConnectionsSetting(const services::Settings& settings, int* out, std::string* error);

// A PostgreSQL pool, and a Redis pool when there is a Redis, `connections` each,
// whose failures are counted in `metrics` (the process's).
class Pools {
 public:
  Pools(const std::string& pg, const std::optional<RedisOptions>& redis, int connections,
        services::ProcessMetrics* metrics);
  PgPool* pg() { return &pg_; }
  RedisPool* redis() { return redis_ ? &*redis_ : nullptr; }

 private:
  PgPool pg_;
  std::optional<RedisPool> redis_;
};

// --migrations DIR: migrations applied at start (metropolis-server); empty: none.
void AddMigrationsSetting(services::Settings* settings);
// Applies them when --migrations names a folder, and logs how many; false with
// *error ("--migrations: ..." for the folder, "migrating: ..." for the database).
bool MigrateAtStart(const services::Settings& settings, std::string* error);

struct StorageProgramOptions {
  services::ServerProgramOptions server{};
  std::string pg_help = kPostgresHelp;
  std::optional<RedisSettings> redis{};  // none: PostgreSQL only
  ConnectionsSetting connections{};
};

class StorageServerProgram final : public services::ServerProgram {
 public:
  explicit StorageServerProgram(StorageProgramOptions options);

  // After Start().
  PgPool* pg() { return pools_->pg(); }
  RedisPool* redis() { return pools_->redis(); }
  // After Parse(): --redis-prefix.
  const std::string& redis_prefix() const { return redis_.prefix; }

 protected:
  void AddTrailingSettings(services::Settings* settings) override;
  bool ReadSettings(const services::Settings& settings, std::string* error) override;
  bool CheckSettings(const services::Settings& settings, std::string* error) override;
  bool Open(std::string* error) override;

 private:
  const StorageProgramOptions options_;
  int connections_ = 0;
  RedisOptions redis_;
  std::unique_ptr<Pools> pools_;
};

}  // namespace metropolis::storage
