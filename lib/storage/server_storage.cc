#include "lib/storage/server_storage.h"

#include <utility>
#include <vector>

#include "lib/common/log.h"
#include "lib/storage/migrations.h"
#include "lib/storage/redis_sentinel.h"

namespace metropolis::storage {

void AddPostgresSetting(services::Settings* settings, const std::string& help) {
  settings->Add("pg", "CONNINFO", "", help);
}

void AddRedisSettings(services::Settings* settings, const RedisSettings& help) {
  settings->Add("redis", "ADDR", "", help.address);
  settings->Add("redis-prefix", "PREFIX", "metropolis", help.prefix);
  if (help.user_needs.empty()) return;
  settings->Add("redis-user", "USER", "",
                "Redis ACL user to log in as (AUTH; needs --redis-password); " + help.user_needs);
  settings->Add("redis-password", "PASSWORD", "",
                "password of --redis-user, or alone the default user's (requirepass); better given as " +
                    settings->EnvName("redis-password") + " than on the command line");
}

bool ReadRedisSettings(const services::Settings& settings, const RedisSettings& declared, RedisOptions* out,
                       std::string* error) {
  out->address = settings.Get("redis");
  out->prefix = settings.Get("redis-prefix");
  if (const std::string bad = RedisAddressError(out->address); !bad.empty()) {
    *error = "--redis: " + bad;
    return false;
  }
  if (declared.user_needs.empty()) return true;
  out->login = {settings.Get("redis-user"), settings.Get("redis-password")};
  if (!out->login.user.empty() && out->login.password.empty()) {
    *error =
        "--redis-user '" + out->login.user + "' needs --redis-password (or " + settings.EnvName("redis-password") + ")";
    return false;
  }
  if (out->login.user.find_first_of(" \t\r\n") != std::string::npos) {
    *error = "--redis-user: a Redis user name has no spaces";
    return false;
  }
  return true;
}

void AddConnectionsSetting(services::Settings* settings, const ConnectionsSetting& connections) {
  settings->Add("connections", "N", std::to_string(connections.connections), connections.help);
}

bool ReadConnectionsSetting(const services::Settings& settings, int* out, std::string* error) {
  int64_t connections = 0;
  if (!settings.GetInt("connections", 1, 256, &connections, error)) return false;
  *out = int(connections);
  return true;
}

Pools::Pools(const std::string& pg, const std::optional<RedisOptions>& redis, int connections,
             services::ProcessMetrics* metrics)
    : pg_(pg, connections, metrics) {
  if (redis) redis_.emplace(redis->address, connections, 2000, redis->login, metrics);
}

void AddMigrationsSetting(services::Settings* settings) {
  settings->Add("migrations", "DIR", "",
                "apply the migrations of DIR (e.g. migrations) at start; empty: run metropolis-migrate first");
}

bool MigrateAtStart(const services::Settings& settings, std::string* error) {
  const std::string dir = settings.Get("migrations");
  if (dir.empty()) return true;
  std::vector<Migration> migrations;
  if (!LoadMigrations(dir, &migrations, error)) {
    *error = "--migrations: " + *error;
    return false;
  }
  std::vector<int> applied;
  if (!MigrateAt(settings.Get("pg"), migrations, &applied, error)) {
    *error = "migrating: " + *error;
    return false;
  }
  services::LogInfo("migrated", {{"applied", std::to_string(applied.size())},
                                 {"already_there", std::to_string(migrations.size() - applied.size())}});
  return true;
}

StorageServerProgram::StorageServerProgram(StorageProgramOptions options)
    : ServerProgram(options.server), options_(std::move(options)) {
  AddPostgresSetting(&settings(), options_.pg_help);
  if (options_.redis) AddRedisSettings(&settings(), *options_.redis);
}

void StorageServerProgram::AddTrailingSettings(services::Settings* settings) {
  AddConnectionsSetting(settings, options_.connections);
}

bool StorageServerProgram::ReadSettings(const services::Settings& settings, std::string* error) {
  return ReadConnectionsSetting(settings, &connections_, error);
}

bool StorageServerProgram::CheckSettings(const services::Settings& settings, std::string* error) {
  return !options_.redis || ReadRedisSettings(settings, *options_.redis, &redis_, error);
}

bool StorageServerProgram::Open(std::string* /*error*/) {
  std::optional<RedisOptions> redis;
  if (options_.redis) redis = redis_;
  pools_ = std::make_unique<Pools>(settings().Get("pg"), redis, connections_, metrics());
  return true;
}

}  // namespace metropolis::storage
