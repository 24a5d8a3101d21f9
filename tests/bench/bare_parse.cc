// The floor `make bench` compares pt2lint against: load one JSON file and parse it with
// simdjson's DOM parser, nothing else. Usage: bare_parse FILE.json
#include <cstdio>

#include <simdjson.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE.json\n", argv[0]);
    return 2;
  }
  simdjson::padded_string json;
  if (simdjson::padded_string::load(argv[1]).get(json)) {
    std::fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto error = parser.parse(json).get(root)) {
    std::fprintf(stderr, "%s: %s\n", argv[1], simdjson::error_message(error));
    return 1;
  }
  return root.is_object() ? 0 : 1;
}
