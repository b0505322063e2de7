#include "services/matchmaker/tournaments/entrants.h"

namespace metropolis::matchmaker {

grpc::Status FillNames(EntrantDirectory* directory, const std::vector<TournamentRow*>& rows) {
  std::vector<int64_t> ids;
  for (const TournamentRow* row : rows) ids.insert(ids.end(), row->spec.entrants.begin(), row->spec.entrants.end());
  std::unordered_map<int64_t, std::string> names;
  if (!ids.empty())
    if (grpc::Status s = directory->Names(ids, &names); !s.ok()) return s;
  for (TournamentRow* row : rows) {
    row->names.clear();
    for (int64_t id : row->spec.entrants) {
      auto it = names.find(id);
      row->names.push_back(it != names.end() ? it->second : std::to_string(id));
    }
  }
  return grpc::Status::OK;
}

grpc::Status CheckEntrants(EntrantDirectory* directory, const TournamentSpec& spec) {
  std::unordered_map<int64_t, std::string> names;
  if (grpc::Status s = directory->Names(spec.entrants, &names); !s.ok()) return s;
  for (int64_t e : spec.entrants)
    if (!names.count(e)) return {grpc::StatusCode::NOT_FOUND, "entrants: no identity " + std::to_string(e)};
  return grpc::Status::OK;
}

}  // namespace metropolis::matchmaker
