#include "engine/game.h"

#include <charconv>
#include <type_traits>
#include <utility>

#include "engine/json_text.h"

namespace metropolis {
namespace {

// ---- Writing ---------------------------------------------------------------

constexpr char kGenericHarborLetter = '3';

char HarborLetter(int harbor) { return harbor == kGenericHarbor ? kGenericHarborLetter : CardLetter(harbor); }

int HarborFromLetter(char c) {
  if (c == kGenericHarborLetter) return kGenericHarbor;
  int card = CardFromLetter(c);
  return IsResource(card) ? card : -1;
}

// ---- Reading: a small strict JSON parser -------------------------------------
//
// The whole text is parsed into a tree first, so that the rules version can be
// checked before anything that depends on it (the actions) is interpreted,
// wherever the keys stand in the object.

struct Json;
// An object's member. A named struct rather than std::pair<std::string, Json>:
// std::pair of an incomplete type inside Json is rejected by clang with libstdc++.
struct JsonMember;

struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  std::string text;  // a string's value, or a number's literal (kept exact for 64-bit seeds)
  std::vector<Json> items;
  std::vector<JsonMember> members;

  const Json* Find(std::string_view key) const;
};

struct JsonMember {
  std::string key;
  Json value;
};

const Json* Json::Find(std::string_view key) const {
  for (const auto& [k, v] : members)
    if (k == key) return &v;
  return nullptr;
}

std::string_view KindName(Json::Kind k) {
  switch (k) {
    case Json::Kind::kNull:
      return "null";
    case Json::Kind::kBool:
      return "a boolean";
    case Json::Kind::kNumber:
      return "a number";
    case Json::Kind::kString:
      return "a string";
    case Json::Kind::kArray:
      return "an array";
    case Json::Kind::kObject:
      return "an object";
  }
  return "?";
}

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  bool ParseDocument(Json* out, std::string* error) {
    SkipSpace();
    if (!ParseValue(out, 0)) return Fail(error);
    SkipSpace();
    if (pos_ != text_.size()) {
      error_ = "unexpected text after the JSON object";
      return Fail(error);
    }
    return true;
  }

 private:
  static constexpr int kMaxDepth = 32;

  bool Fail(std::string* error) {
    if (error) *error = "JSON at offset " + std::to_string(pos_) + ": " + error_;
    return false;
  }
  bool Error(std::string message) {
    error_ = std::move(message);
    return false;
  }

  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool AtEnd() const { return pos_ >= text_.size(); }

  bool Literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return Error("invalid literal");
    pos_ += word.size();
    return true;
  }

  bool ParseValue(Json* out, int depth) {
    if (depth > kMaxDepth) return Error("nested too deeply");
    if (AtEnd()) return Error("unexpected end of input, expected a value");
    char c = text_[pos_];
    switch (c) {
      case '{':
        return ParseObject(out, depth);
      case '[':
        return ParseArray(out, depth);
      case '"':
        out->kind = Json::Kind::kString;
        return ParseString(&out->text);
      case 't':
        out->kind = Json::Kind::kBool;
        out->boolean = true;
        return Literal("true");
      case 'f':
        out->kind = Json::Kind::kBool;
        return Literal("false");
      case 'n':
        out->kind = Json::Kind::kNull;
        return Literal("null");
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out);
        return Error(std::string("unexpected character '") + c + "'");
    }
  }

  bool ParseObject(Json* out, int depth) {
    out->kind = Json::Kind::kObject;
    ++pos_;
    SkipSpace();
    if (!AtEnd() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipSpace();
      if (AtEnd() || text_[pos_] != '"') return Error("expected a key in quotes");
      std::string key;
      if (!ParseString(&key)) return false;
      SkipSpace();
      if (AtEnd() || text_[pos_] != ':') return Error("expected ':' after key \"" + key + "\"");
      ++pos_;
      SkipSpace();
      Json value;
      if (!ParseValue(&value, depth + 1)) return false;
      for (const auto& member : out->members)
        if (member.key == key) return Error("duplicate key \"" + key + "\"");
      out->members.push_back(JsonMember{std::move(key), std::move(value)});
      SkipSpace();
      if (AtEnd()) return Error("unexpected end of input inside an object");
      if (text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return Error("expected ',' or '}' in an object");
    }
  }

  bool ParseArray(Json* out, int depth) {
    out->kind = Json::Kind::kArray;
    ++pos_;
    SkipSpace();
    if (!AtEnd() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipSpace();
      Json value;
      if (!ParseValue(&value, depth + 1)) return false;
      out->items.push_back(std::move(value));
      SkipSpace();
      if (AtEnd()) return Error("unexpected end of input inside an array");
      if (text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return Error("expected ',' or ']' in an array");
    }
  }

  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool ParseHex4(unsigned* out) {
    if (pos_ + 4 > text_.size()) return Error("truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      int h = HexValue(text_[pos_ + i]);
      if (h < 0) return Error("invalid \\u escape");
      v = v * 16 + unsigned(h);
    }
    pos_ += 4;
    *out = v;
    return true;
  }

  static void AppendUtf8(unsigned cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(char(cp));
    } else if (cp < 0x800) {
      out->push_back(char(0xC0 | (cp >> 6)));
      out->push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(char(0xE0 | (cp >> 12)));
      out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(char(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(char(0xF0 | (cp >> 18)));
      out->push_back(char(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(char(0x80 | (cp & 0x3F)));
    }
  }

  bool ParseString(std::string* out) {
    ++pos_;  // the opening quote
    while (true) {
      if (AtEnd()) return Error("unterminated string");
      char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;
        return Error("control character in a string");
      }
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (AtEnd()) return Error("unterminated string");
      char e = text_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out->push_back(e);
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          unsigned cp;
          if (!ParseHex4(&cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00) {
            unsigned low;
            if (text_.substr(pos_, 2) != "\\u") return Error("unpaired surrogate in \\u escape");
            pos_ += 2;
            if (!ParseHex4(&low)) return false;
            if (low < 0xDC00 || low >= 0xE000) return Error("unpaired surrogate in \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            return Error("unpaired surrogate in \\u escape");
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          --pos_;
          return Error(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  bool ParseNumber(Json* out) {
    size_t start = pos_;
    auto digits = [&] {
      size_t d = pos_;
      while (!AtEnd() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ - d;
    };
    if (text_[pos_] == '-') ++pos_;
    if (!AtEnd() && text_[pos_] == '0') {
      ++pos_;
    } else if (digits() == 0) {
      return Error("invalid number");
    }
    if (!AtEnd() && text_[pos_] == '.') {
      ++pos_;
      if (digits() == 0) return Error("invalid number");
    }
    if (!AtEnd() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (!AtEnd() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (digits() == 0) return Error("invalid number");
    }
    out->kind = Json::Kind::kNumber;
    out->text = std::string(text_.substr(start, pos_ - start));
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

// ---- Interpreting the tree ---------------------------------------------------

bool Expect(const Json& v, Json::Kind kind, std::string_view what, std::string* error) {
  if (v.kind == kind) return true;
  *error = std::string(what) + ": expected " + std::string(KindName(kind)) + ", got " + std::string(KindName(v.kind));
  return false;
}

// Integers only: a fraction or an exponent in a count is a broken record.
template <typename T>
bool ReadInteger(const Json& v, std::string_view what, T* out, std::string* error) {
  if (!Expect(v, Json::Kind::kNumber, what, error)) return false;
  const char* first = v.text.data();
  const char* last = first + v.text.size();
  auto [ptr, ec] = std::from_chars(first, last, *out);
  // from_chars refuses a minus sign for unsigned types: that is a range error too.
  bool negative_unsigned = std::is_unsigned_v<T> && !v.text.empty() && v.text[0] == '-';
  if (ec == std::errc::result_out_of_range || (negative_unsigned && v.text.find_first_of(".eE") == std::string::npos)) {
    *error = std::string(what) + ": " + v.text + " is out of range";
    return false;
  }
  if (ec != std::errc() || ptr != last) {
    *error = std::string(what) + ": expected an integer, got " + v.text;
    return false;
  }
  return true;
}

const Json* Require(const Json& object, std::string_view key, std::string* error) {
  const Json* v = object.Find(key);
  if (!v) *error = "missing \"" + std::string(key) + "\"";
  return v;
}

bool ReadBoard(const Json& v, Board* board, std::string* error) {
  if (!Expect(v, Json::Kind::kObject, "board", error)) return false;
  const Json* terrain = Require(v, "terrain", error);
  if (!terrain) {
    *error = "board: " + *error;
    return false;
  }
  if (!Expect(*terrain, Json::Kind::kString, "board.terrain", error)) return false;
  if (terrain->text.size() != kNumHexes) {
    *error = "board.terrain: expected " + std::to_string(kNumHexes) + " letters, got " +
             std::to_string(terrain->text.size());
    return false;
  }
  for (int h = 0; h < kNumHexes; ++h) {
    int t = TerrainFromLetter(terrain->text[h]);
    if (t < 0) {
      *error = "board.terrain: '" + std::string(1, terrain->text[h]) + "' at hex " + std::to_string(h) +
               " is not a terrain letter";
      return false;
    }
    board->terrain[h] = uint8_t(t);
  }

  const Json* tokens = Require(v, "tokens", error);
  if (!tokens) {
    *error = "board: " + *error;
    return false;
  }
  if (!Expect(*tokens, Json::Kind::kArray, "board.tokens", error)) return false;
  if (tokens->items.size() != kNumHexes) {
    *error =
        "board.tokens: expected " + std::to_string(kNumHexes) + " numbers, got " + std::to_string(tokens->items.size());
    return false;
  }
  for (int h = 0; h < kNumHexes; ++h) {
    int t = 0;
    std::string what = "board.tokens[" + std::to_string(h) + "]";
    if (!ReadInteger(tokens->items[h], what, &t, error)) return false;
    if (t < 0 || t > 12) {
      *error = what + ": " + std::to_string(t) + " is not a number token";
      return false;
    }
    board->token[h] = uint8_t(t);
  }

  const Json* harbors = Require(v, "harbors", error);
  if (!harbors) {
    *error = "board: " + *error;
    return false;
  }
  if (!Expect(*harbors, Json::Kind::kString, "board.harbors", error)) return false;
  if (harbors->text.size() != kNumHarbors) {
    *error = "board.harbors: expected " + std::to_string(kNumHarbors) + " letters, got " +
             std::to_string(harbors->text.size());
    return false;
  }
  for (int i = 0; i < kNumHarbors; ++i) {
    int t = HarborFromLetter(harbors->text[i]);
    if (t < 0) {
      *error = "board.harbors: '" + std::string(1, harbors->text[i]) + "' at slot " + std::to_string(i) +
               " is not a harbor (a resource letter or '3')";
      return false;
    }
    board->harbor[i] = uint8_t(t);
  }
  return true;
}

bool ReadOptions(const Json& v, RulesOptions* options, std::string* error) {
  if (!Expect(v, Json::Kind::kString, "options", error)) return false;
  std::string_view text = v.text;
  while (!text.empty()) {
    size_t space = text.find(' ');
    std::string_view item = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
    if (item.empty()) continue;
    std::string e = ParseOption(item, options);
    if (!e.empty()) {
      *error = "options: " + e;
      return false;
    }
  }
  return true;
}

}  // namespace

std::string GameRecordToJson(const GameRecord& record) {
  const GameConfig& config = record.config;
  std::string out;
  out.reserve(256 + record.actions.size() * 20);
  out += "{\"rules_version\":" + std::to_string(config.rules_version);
  out += ",\"num_seats\":" + std::to_string(config.num_seats);
  out += ",\"board\":{\"terrain\":\"";
  for (uint8_t t : config.board.terrain) out.push_back(TerrainLetter(t));
  out += "\",\"tokens\":[";
  for (int h = 0; h < kNumHexes; ++h) {
    if (h) out.push_back(',');
    out += std::to_string(config.board.token[h]);
  }
  out += "],\"harbors\":\"";
  for (uint8_t t : config.board.harbor) out.push_back(HarborLetter(t));
  out += "\"},\"options\":";
  AppendJsonString(OptionsToString(config.options), &out);
  if (record.seed) out += ",\"seed\":" + std::to_string(*record.seed);
  if (record.winner) out += ",\"winner\":" + std::to_string(*record.winner);
  if (!record.players.empty()) {
    out += ",\"players\":[";
    for (size_t i = 0; i < record.players.size(); ++i) {
      if (i) out.push_back(',');
      AppendJsonString(record.players[i], &out);
    }
    out += "]";
  }
  if (!record.verifiable_seed.empty()) {
    out += ",\"verifiable_seed\":";
    AppendJsonString(record.verifiable_seed, &out);
    out += ",\"chance_commitment\":";
    AppendJsonString(record.chance_commitment, &out);
  }
  out += ",\"actions\":[";
  for (size_t i = 0; i < record.actions.size(); ++i) {
    if (i) out.push_back(',');
    AppendJsonString(ActionToString(record.actions[i]), &out);
  }
  out += "]}";
  return out;
}

bool GameRecordFromJson(std::string_view json, GameRecord* record, std::string* error) {
  std::string scratch;
  if (!error) error = &scratch;
  Json root;
  if (!JsonParser(json).ParseDocument(&root, error)) return false;
  if (!Expect(root, Json::Kind::kObject, "game record", error)) return false;

  GameRecord r;
  const Json* v = Require(root, "rules_version", error);
  if (!v || !ReadInteger(*v, "rules_version", &r.config.rules_version, error)) return false;
  if (std::string e = CheckRulesVersion(r.config.rules_version); !e.empty()) {
    *error = e;
    return false;
  }

  if (!(v = Require(root, "num_seats", error)) || !ReadInteger(*v, "num_seats", &r.config.num_seats, error))
    return false;
  if (!(v = Require(root, "board", error)) || !ReadBoard(*v, &r.config.board, error)) return false;
  if ((v = root.Find("options")) && !ReadOptions(*v, &r.config.options, error)) return false;
  if (std::string e = ValidateConfig(r.config); !e.empty()) {
    *error = "configuration: " + e;
    return false;
  }

  if ((v = root.Find("seed"))) {
    uint64_t seed = 0;
    if (!ReadInteger(*v, "seed", &seed, error)) return false;
    r.seed = seed;
  }
  if ((v = root.Find("winner")) && v->kind != Json::Kind::kNull) {
    int winner = kNoSeat;
    if (!ReadInteger(*v, "winner", &winner, error)) return false;
    if (winner != kNoSeat && (winner < 0 || winner >= r.config.num_seats)) {
      *error = "winner: " + std::to_string(winner) + " is not a seat";
      return false;
    }
    r.winner = winner;
  }
  if ((v = root.Find("players"))) {
    if (!Expect(*v, Json::Kind::kArray, "players", error)) return false;
    for (size_t i = 0; i < v->items.size(); ++i) {
      if (!Expect(v->items[i], Json::Kind::kString, "players[" + std::to_string(i) + "]", error)) return false;
      r.players.push_back(v->items[i].text);
    }
  }

  for (auto [key, field] :
       {std::pair{"verifiable_seed", &r.verifiable_seed}, std::pair{"chance_commitment", &r.chance_commitment}}) {
    if (!(v = root.Find(key))) continue;
    if (!Expect(*v, Json::Kind::kString, key, error)) return false;
    *field = v->text;
  }

  if (!(v = Require(root, "actions", error))) return false;
  if (!Expect(*v, Json::Kind::kArray, "actions", error)) return false;
  r.actions.reserve(v->items.size());
  for (size_t i = 0; i < v->items.size(); ++i) {
    std::string what = "actions[" + std::to_string(i) + "]";
    if (!Expect(v->items[i], Json::Kind::kString, what, error)) return false;
    std::string e;
    std::optional<Action> a = ParseAction(v->items[i].text, &e);
    if (!a) {
      *error = what + " '" + v->items[i].text + "': " + e;
      return false;
    }
    r.actions.push_back(*a);
  }
  *record = std::move(r);
  return true;
}

bool ReplayGame(const GameRecord& record, const ReplayStepFn& on_step, std::string* error) {
  std::string scratch;
  if (!error) error = &scratch;
  // The State constructor trusts its configuration, so check it first.
  if (std::string e = CheckRulesVersion(record.config.rules_version); !e.empty()) {
    *error = e;
    return false;
  }
  if (std::string e = ValidateConfig(record.config); !e.empty()) {
    *error = "configuration: " + e;
    return false;
  }
  State state(record.config);
  if (!NewGame(record.config, &state, error)) return false;
  std::vector<Event> events;
  if (on_step) on_step(0, state, nullptr, events);
  for (size_t i = 0; i < record.actions.size(); ++i) {
    const Action& a = record.actions[i];
    events.clear();
    std::string e = state.Apply(a, &events);
    if (!e.empty()) {
      *error = "step " + std::to_string(i + 1) + ": " + ActionToString(a) + ": " + e;
      return false;
    }
    if (on_step) on_step(int(i + 1), state, &a, events);
  }
  return true;
}

}  // namespace metropolis
