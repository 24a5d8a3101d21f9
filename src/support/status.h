// The one way a function that can fail with a message says so (CONTRIBUTING.md, "Errors").
// It returns a Status (nothing to hand back on success) or an Expected<T> (a value on
// success). Both are [[nodiscard]], so a failure cannot be dropped by accident: a caller that
// really does not care writes `(void)`, and says why in a comment.
//
// The message is for the user: a whole sentence that names the file, member or value and what
// is wrong with it, without a trailing newline. Callers add context in front ("reading
// --baseline FILE: ...") rather than wrapping it in a second convention.
//
// Exceptions are not errors in this sense: the few that stay (allocation, programming errors,
// two internal unwinds, CLI11) are listed with the reason for each in CONTRIBUTING.md.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace pt2lint {

class [[nodiscard]] Status {
 public:
  Status() = default;  // success

  static Status error(std::string message) {
    Status status;
    status.failed_ = true;
    status.message_ = std::move(message);
    return status;
  }

  bool ok() const { return !failed_; }
  // Empty on success.
  const std::string& message() const { return message_; }

 private:
  bool failed_ = false;
  std::string message_;
};

template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}  // NOLINT: implicit, as a return value
  // From a failed Status: `return Status::error("...")`.
  Expected(Status failure) : state_(std::move(failure)) {}  // NOLINT: implicit, as above

  bool ok() const { return std::holds_alternative<T>(state_); }
  // The value; only when ok().
  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  // Why it failed; empty on success, as Status::message().
  const std::string& message() const {
    static const std::string none;
    return ok() ? none : std::get<Status>(state_).message();
  }
  Status status() const { return ok() ? Status() : std::get<Status>(state_); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace pt2lint
