// A pthread with a chosen stack size; if no such thread can be made, the job runs here.
#include "util/large_stack.hpp"

#include <pthread.h>

#include <exception>

namespace gonu {

void run_with_large_stack(const std::function<void()>& f, std::size_t stack_bytes) {
  struct Call {
    const std::function<void()>* f;
    std::exception_ptr error;
  } call{&f, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t t;
  auto body = [](void* arg) -> void* {
    auto* c = static_cast<Call*>(arg);
    try {
      (*c->f)();
    } catch (...) {
      c->error = std::current_exception();
    }
    return nullptr;
  };
  const bool started = pthread_create(&t, &attr, body, &call) == 0;
  pthread_attr_destroy(&attr);
  if (!started) {
    f();
    return;
  }
  pthread_join(t, nullptr);
  if (call.error) std::rethrow_exception(call.error);
}

}  // namespace gonu
