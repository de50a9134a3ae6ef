// Runs a deeply recursive job (the superko search, the certificate checker) on a thread with a
// large stack: superko lines run tens of thousands of plies deep. The stack is reserved, and
// touched only as deep as the job goes. Exceptions thrown by the job are rethrown to the caller.
#pragma once
#include <cstddef>
#include <functional>

namespace gonu {

void run_with_large_stack(const std::function<void()>& f, std::size_t stack_bytes = std::size_t(2) << 30);

}  // namespace gonu
