#include "tests/checker/load.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>
#include <sstream>

#include "engine/game.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::checker {
namespace {

// Bytes travel as hex (encode(x, 'hex')): the same text in every libpqxx version.
bool FromHex(const std::string& hex, std::string* out) {
  if (hex.size() % 2) return false;
  out->clear();
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(char(hi * 16 + lo));
  }
  return true;
}

std::vector<int> Ints(const std::string& csv) {
  std::vector<int> out;
  std::stringstream in(csv);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::stoi(item));
  return out;
}

// key=value pairs of one log line; a value in double quotes may hold spaces.
std::map<std::string, std::string> LogFields(const std::string& line) {
  std::map<std::string, std::string> fields;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    const size_t eq = line.find('=', i);
    if (eq == std::string::npos) break;
    const std::string key = line.substr(i, eq - i);
    std::string value;
    i = eq + 1;
    if (i < line.size() && line[i] == '"') {
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        value += line[i];
      }
      ++i;
    } else {
      const size_t end = line.find(' ', i);
      value = line.substr(i, end == std::string::npos ? std::string::npos : end - i);
      i = end == std::string::npos ? line.size() : end;
    }
    if (key.find(' ') == std::string::npos) fields[key] = value;
  }
  return fields;
}

}  // namespace

bool LoadDatabase(const std::string& conninfo, const std::string& ladder, Inputs* out, std::string* error) {
  try {
    pqxx::connection db(conninfo);
    pqxx::work tx(db);
    const std::string where = ladder.empty() ? "" : " WHERE g.ladder_id = " + tx.quote(ladder);
    std::map<std::string, size_t> index;
    for (const auto& row : tx.exec(
             "SELECT g.id, coalesce(g.ladder_id, ''), coalesce(g.season, 0), encode(g.config, 'hex'), g.reason, "
             "coalesce(g.winner, -1), array_to_string(g.vp, ','), g.actions, "
             "(extract(epoch FROM g.created_at) * 1000)::bigint, (extract(epoch FROM g.finished_at) * 1000)::bigint, "
             "encode(r.codes, 'hex') FROM games g LEFT JOIN replays r ON r.game_id = g.id" +
             where + " ORDER BY g.id")) {
      StoredGame g;
      g.id = row[0].as<std::string>();
      g.ladder = row[1].as<std::string>();
      g.season = row[2].as<int>();
      std::string bytes;
      v1::GameConfig config;
      if (!FromHex(row[3].as<std::string>(), &bytes) || !config.ParseFromString(bytes)) {
        *error = "game " + g.id + ": its config is not a GameConfig";
        return false;
      }
      std::string why;
      if (!protocol::ConfigFromProto(config, &g.config, &why)) {
        *error = "game " + g.id + ": its config is refused: " + why;
        return false;
      }
      g.reason = row[4].as<int>();
      g.winner = row[5].as<int>();
      g.vp = Ints(row[6].as<std::string>());
      g.actions_count = row[7].as<uint32_t>();
      g.created_ms = row[8].as<int64_t>();
      g.finished_ms = row[9].as<int64_t>();
      if (row[10].is_null()) {
        *error = "game " + g.id + " has no replay row";
        return false;
      }
      if (!FromHex(row[10].as<std::string>(), &bytes) || bytes.size() % 8) {
        *error = "game " + g.id + ": its codes are not 8-byte words";
        return false;
      }
      for (size_t i = 0; i < bytes.size(); i += 8) {
        uint64_t code = 0;
        for (size_t j = 0; j < 8; ++j) code = code << 8 | uint8_t(bytes[i + j]);
        const std::optional<Action> action = Decode(code);
        if (!action) {
          *error = "game " + g.id + ": action " + std::to_string(i / 8 + 1) + " has an unknown code";
          return false;
        }
        g.actions.push_back(*action);
      }
      index[g.id] = out->games.size();
      out->games.push_back(std::move(g));
    }
    for (const auto& row : tx.exec("SELECT game_id, seat, identity_id FROM game_seats ORDER BY game_id, seat")) {
      const auto it = index.find(row[0].as<std::string>());
      if (it == index.end()) continue;
      StoredSeat s;
      s.seat = row[1].as<int>();
      if (!row[2].is_null()) s.identity = row[2].as<int64_t>();
      out->games[it->second].seats.push_back(s);
    }
    for (const auto& row : tx.exec("SELECT game_id, rated FROM rated_games")) {
      if (!index.count(row[0].as<std::string>()) && !ladder.empty()) continue;
      out->rated.push_back({row[0].as<std::string>(), row[1].as<bool>()});
    }
    for (const auto& row :
         tx.exec("SELECT id, game_id, ladder_id, season, identity_id, mu_before, mu_after FROM rating_history" +
                 std::string(ladder.empty() ? "" : " WHERE ladder_id = " + tx.quote(ladder)))) {
      out->history.push_back({row[0].as<int64_t>(), row[1].as<std::string>(), row[2].as<std::string>(),
                              row[3].as<int>(), row[4].as<int64_t>(), row[5].as<double>(), row[6].as<double>()});
    }
    for (const auto& row : tx.exec("SELECT ladder_id, season, identity_id, mu, games FROM ratings" +
                                   std::string(ladder.empty() ? "" : " WHERE ladder_id = " + tx.quote(ladder)))) {
      out->ratings.push_back(
          {row[0].as<std::string>(), row[1].as<int>(), row[2].as<int64_t>(), row[3].as<double>(), row[4].as<int>()});
    }
  } catch (const std::exception& e) {
    *error = std::string("reading the database: ") + e.what();
    return false;
  }
  return true;
}

bool LoadRecords(const std::vector<std::string>& files, Inputs* out, std::map<std::string, int>* per_file,
                 std::string* error) {
  for (const std::string& file : files) {
    std::ifstream in(file);
    if (!in) {
      *error = file + ": cannot read it";
      return false;
    }
    int& count = (*per_file)[file];
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line.empty()) continue;
      protocol::SeatRecord record;
      std::string why;
      if (!protocol::SeatRecordFromJson(line, &record, &why)) {
        *error = file + ":" + std::to_string(n) + ": not a seat record: " + why;
        return false;
      }
      out->records.push_back(std::move(record));
      ++count;
    }
  }
  return true;
}

bool LoadCompletedGames(const std::vector<std::string>& dirs, Inputs* out, std::string* error) {
  // The host's fields, next to the engine's record in each file.
  static const char* const kHostFields[] = {
      "game_id",      "ladder",   "season",    "tournament",      "reason",          "vp", "fallback_decisions",
      "identity_ids", "built_in", "forfeited", "created_unix_ms", "finished_unix_ms"};
  for (const std::string& dir : dirs) {
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    if (ec) {
      *error = dir + ": " + ec.message();
      return false;
    }
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
      std::ifstream in(path);
      std::stringstream text;
      text << in.rdbuf();
      StoredGame g;
      try {
        nlohmann::json j = nlohmann::json::parse(text.str());
        g.id = j.at("game_id").get<std::string>();
        g.ladder = j.value("ladder", "");
        g.season = j.value("season", 0);
        g.reason = j.at("reason").get<int>();
        g.vp = j.at("vp").get<std::vector<int>>();
        const auto ids = j.value("identity_ids", std::vector<int64_t>{});
        for (size_t s = 0; s < ids.size(); ++s)
          g.seats.push_back({int(s), ids[s] ? std::optional<int64_t>(ids[s]) : std::nullopt});
        g.created_ms = j.value("created_unix_ms", int64_t{0});
        g.finished_ms = j.value("finished_unix_ms", int64_t{0});
        for (const char* field : kHostFields) j.erase(field);
        GameRecord record;
        std::string why;
        if (!GameRecordFromJson(j.dump(), &record, &why)) {
          *error = path.string() + ": not a game record: " + why;
          return false;
        }
        g.config = record.config;
        g.actions = std::move(record.actions);
        g.winner = record.winner.value_or(-1);
        g.actions_count = uint32_t(g.actions.size());
      } catch (const std::exception& e) {
        *error = path.string() + ": " + e.what();
        return false;
      }
      out->games.push_back(std::move(g));
    }
  }
  return true;
}

bool LoadHostLogs(const std::vector<std::string>& files, Inputs* out, std::string* error) {
  for (const std::string& file : files) {
    std::ifstream in(file);
    if (!in) {
      *error = file + ": cannot read it";
      return false;
    }
    std::string line;
    while (std::getline(in, line)) {
      if (line.find("msg=\"game ") == std::string::npos) continue;
      const auto fields = LogFields(line);
      const auto msg = fields.find("msg"), game = fields.find("game");
      if (msg == fields.end() || game == fields.end()) continue;
      if (msg->second == "game created") out->created.insert(game->second);
      if (msg->second == "game void") {
        const auto reason = fields.find("reason");
        out->voids[game->second] = reason == fields.end() ? "unknown" : reason->second;
      }
    }
  }
  return true;
}

}  // namespace metropolis::checker
