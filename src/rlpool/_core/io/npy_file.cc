// numpy's .npy format read for envs' data files (npy_file.h).
#include "_core/io/npy_file.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace rlpool {

namespace {

// The value of `key` in a .npy header's dict ("'key': value"), up to the ',' or '}' (or ')') that ends it.
std::string header_value(const std::string& header, const std::string& key, const std::string& path, Refuse refuse) {
  const std::size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) refuse(path, "has no " + key + " in its .npy header");
  std::size_t from = header.find(':', at);
  if (from == std::string::npos) refuse(path, "has a bad .npy header");
  ++from;
  while (from < header.size() && header[from] == ' ') ++from;
  if (from >= header.size()) refuse(path, "has a bad .npy header");
  const std::size_t close = header[from] == '(' ? header.find(')', from) : header.find_first_of(",}", from);
  if (close == std::string::npos) refuse(path, "has a bad .npy header");
  const std::size_t end = header[from] == '(' ? close + 1 : close;
  if (end <= from) refuse(path, "has a bad .npy header");
  return header.substr(from, end - from);
}

// "(3, 9, 9)" or "(5,)" as its numbers.
std::vector<std::int64_t> parse_shape(std::string text, const std::string& path, Refuse refuse) {
  text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') refuse(path, "has shape " + text);
  std::vector<std::int64_t> shape;
  std::size_t at = 1;
  while (at < text.size() - 1) {
    const std::size_t comma = std::min(text.find(',', at), text.size() - 1);
    const std::string number = text.substr(at, comma - at);
    if (number.empty() || number.size() > 12 || number.find_first_not_of("0123456789") != std::string::npos) {
      refuse(path, "has shape " + text);
    }
    shape.push_back(std::stoll(number));
    at = comma + 1;
  }
  return shape;
}

// A dtype's item size: the number its descr ends in ("|u1" -> 1, "<f8" -> 8).
std::size_t item_bytes(const std::string& descr) {
  const std::size_t at = descr.find_last_not_of("0123456789");
  if (at == std::string::npos || at + 1 >= descr.size() || descr.size() - at > 3) {
    throw std::logic_error("npy dtype '" + descr + "' does not end in its item size");
  }
  return static_cast<std::size_t>(std::stoul(descr.substr(at + 1)));
}

}  // namespace

NpyBytes read_npy(const std::string& path, std::initializer_list<std::string_view> dtypes, Refuse refuse) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) refuse(path, "could not be opened");
  const std::streamoff end = file.tellg();
  if (end < 0) refuse(path, "could not be read");
  const auto file_size = static_cast<std::size_t>(end);
  // The preamble: magic, version, then the header's length (2 bytes in version 1, 4 in 2 and 3).
  std::string preamble(std::min<std::size_t>(file_size, 12), '\0');
  file.seekg(0);
  file.read(preamble.data(), static_cast<std::streamsize>(preamble.size()));
  if (!file || preamble.size() < 10 || preamble.compare(0, 6, "\x93NUMPY") != 0) refuse(path, "is not a .npy file");
  const auto major = static_cast<unsigned char>(preamble[6]);
  const int length_bytes = major == 1 ? 2 : (major == 2 || major == 3) && preamble.size() >= 12 ? 4 : 0;
  if (length_bytes == 0) refuse(path, "has .npy format version " + std::to_string(major));
  std::size_t header_len = 0;
  for (int i = length_bytes - 1; i >= 0; --i) {
    header_len = (header_len << 8) | static_cast<unsigned char>(preamble[8 + i]);
  }
  const std::size_t data_at = 8 + static_cast<std::size_t>(length_bytes) + header_len;
  if (data_at > file_size) refuse(path, "is truncated in its header");
  std::string header(header_len, '\0');
  file.seekg(static_cast<std::streamoff>(data_at - header_len));
  file.read(header.data(), static_cast<std::streamsize>(header_len));
  if (!file) refuse(path, "could not be read");
  const std::string descr = header_value(header, "descr", path, refuse);
  const auto known = std::find_if(dtypes.begin(), dtypes.end(), [&](std::string_view d) {
    return descr == "'" + std::string(d) + "'";
  });
  if (known == dtypes.end()) refuse(path, "has dtype " + descr);
  if (header_value(header, "fortran_order", path, refuse) != "False") refuse(path, "is in Fortran order");
  NpyBytes out;
  out.descr = std::string(*known);
  const std::size_t item_size = item_bytes(out.descr);
  out.shape = parse_shape(header_value(header, "shape", path, refuse), path, refuse);
  std::size_t count = item_size;
  for (const std::int64_t n : out.shape) {
    if (n > 0 && count > (std::size_t{1} << 40) / static_cast<std::size_t>(n)) refuse(path, "has a shape too large");
    count *= static_cast<std::size_t>(n);
  }
  if (file_size - data_at != count) {
    refuse(path, "holds " + std::to_string(file_size - data_at) + " bytes of data for its shape");
  }
  out.data.resize(count);
  file.seekg(static_cast<std::streamoff>(data_at));
  file.read(reinterpret_cast<char*>(out.data.data()), static_cast<std::streamsize>(count));
  if (!file && count > 0) refuse(path, "could not be read");
  return out;
}

std::vector<double> float64_values(const NpyBytes& npy) {
  static_assert(std::endian::native == std::endian::little && sizeof(double) == 8);
  if (npy.descr != "<f8") throw std::logic_error("float64_values of a '" + npy.descr + "' array");
  std::vector<double> values(npy.data.size() / sizeof(double));
  std::memcpy(values.data(), npy.data.data(), values.size() * sizeof(double));
  return values;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

std::string file_identity(const std::string& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  const auto time = std::filesystem::last_write_time(path, error);
  return path + '\n' + std::to_string(error ? 0 : size) + '\n' +
         std::to_string(error ? 0 : time.time_since_epoch().count());
}

}  // namespace rlpool
