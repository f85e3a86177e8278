#include "io/cell_fields.hpp"

#include <stdexcept>
#include <unordered_set>

namespace tessera::io {

void checkCellFields(std::string_view writer, const std::vector<CellField>& fields, long long cells,
                     std::initializer_list<std::string_view> reserved) {
  std::unordered_set<std::string_view> names(reserved);
  std::string reservedList;
  for (const std::string_view name : reserved)
    reservedList += (reservedList.empty() ? "" : ", ") + std::string(name);
  for (const CellField& field : fields) {
    // vtkCellData::AddArray silently replaces an array of the same name, so reject duplicates.
    if (field.name.empty() || !names.insert(field.name).second)
      throw std::invalid_argument(std::string(writer) + ": the field name '" + field.name +
                                  "' is empty, repeated or reserved (" + reservedList + ")");
    const long long expected = field.components * cells;
    if ((field.components != 1 && field.components != 3) ||
        (long long)field.values.size() != expected)
      throw std::invalid_argument(std::string(writer) + ": the field '" + field.name + "' has " +
                                  std::to_string(field.values.size()) + " values of " +
                                  std::to_string(field.components) +
                                  " components, expected 1 or 3 components for each of " +
                                  std::to_string(cells) + " cells");
  }
}

} // namespace tessera::io
