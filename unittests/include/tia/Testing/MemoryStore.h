//===- tia/Testing/MemoryStore.h - an in-memory store for a test -*- C++ -*-=//
//
// Shared by the unit tests of the store and what builds on it: a fresh
// database in SQLite's memory, with tia's schema.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_TESTING_MEMORYSTORE_H
#define TIA_TESTING_MEMORYSTORE_H

#include "tia/Store/Store.h"
#include "gtest/gtest.h"
#include <memory>

namespace tia {
namespace testing {

/// A store in memory; null, with the test failed, when it cannot open.
inline std::unique_ptr<Store> openMemory() {
  auto S = Store::open(":memory:", Store::Mode::ReadWrite);
  if (!S) {
    ADD_FAILURE() << llvm::toString(S.takeError());
    return nullptr;
  }
  return std::move(*S);
}

} // namespace testing
} // namespace tia

#endif // TIA_TESTING_MEMORYSTORE_H
