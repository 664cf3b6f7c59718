//===- BoundaryStore.cpp - the build objects tests crossed into -----------===//
//
// A pytest test that loads an extension module or runs a program of the
// build crosses into C and C++ code. When per-test coverage of that object
// was recorded, the coverage map holds what the test ran there; when not,
// the test is selected for every change to the object's sources, which
// boundary_sources lists.
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "StoreInternal.h"
#include "tia/Store/Store.h"

namespace tia {

using store::collectText;
using store::inTransaction;
using store::testId;

llvm::Error Store::putBoundaries(const TestBoundaries &B) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto Test = testId(*DB, B.TestId);
    if (!Test)
      return Test.takeError();
    auto Drop = DB->statement("DELETE FROM test_boundaries WHERE test_id = ?");
    if (!Drop)
      return Drop.takeError();
    Drop->bindInt64(0, *Test);
    if (llvm::Error E = Drop->run())
      return E;
    for (const Boundary &O : B.Objects) {
      auto Add = DB->statement(
          "INSERT OR REPLACE INTO test_boundaries(test_id, object, program, "
          "covered, problem) VALUES(?, ?, ?, ?, ?)");
      if (!Add)
        return Add.takeError();
      Add->bindInt64(0, *Test);
      Add->bindText(1, O.Object);
      Add->bindBool(2, O.Program);
      Add->bindBool(3, O.Covered);
      Add->bindText(4, O.Problem);
      if (llvm::Error E = Add->run())
        return E;
    }
    return llvm::Error::success();
  });
}

llvm::Error Store::putBoundarySources(llvm::StringRef Object,
                                      const std::vector<std::string> &Sources) {
  return inTransaction(*DB, [&]() -> llvm::Error {
    auto Drop = DB->statement("DELETE FROM boundary_sources WHERE object = ?");
    if (!Drop)
      return Drop.takeError();
    Drop->bindText(0, Object);
    if (llvm::Error E = Drop->run())
      return E;
    for (const std::string &Path : Sources) {
      auto Add = DB->statement(
          "INSERT OR IGNORE INTO boundary_sources(object, path) VALUES(?, ?)");
      if (!Add)
        return Add.takeError();
      Add->bindText(0, Object);
      Add->bindText(1, Path);
      if (llvm::Error E = Add->run())
        return E;
    }
    return llvm::Error::success();
  });
}

llvm::Expected<std::vector<TestBoundaries>> Store::boundaries() {
  auto S =
      DB->statement("SELECT t.name, b.object, b.program, b.covered, b.problem "
                    "FROM test_boundaries b JOIN tests t ON t.id = b.test_id "
                    "ORDER BY t.name, b.object");
  if (!S)
    return S.takeError();
  std::vector<TestBoundaries> Out;
  if (llvm::Error E = S->forEachRow([&] {
        std::string Test = S->columnText(0);
        if (Out.empty() || Out.back().TestId != Test)
          Out.push_back({Test, {}});
        Out.back().Objects.push_back({S->columnText(1), S->columnBool(2),
                                      S->columnBool(3), S->columnText(4)});
      }))
    return E;
  return Out;
}

llvm::Expected<std::vector<std::string>>
Store::boundarySources(llvm::StringRef Object) {
  auto S = DB->statement(
      "SELECT path FROM boundary_sources WHERE object = ? ORDER BY path");
  if (!S)
    return S.takeError();
  S->bindText(0, Object);
  return collectText(*S);
}

llvm::Expected<std::optional<Boundary>>
Store::coveredBoundaryOf(llvm::StringRef TestId, llvm::StringRef Path) {
  auto S = DB->statement(
      "SELECT b.object, b.program FROM tests t "
      "JOIN test_boundaries b ON b.test_id = t.id AND b.covered = 1 "
      "JOIN boundary_sources s ON s.object = b.object AND s.path = ? "
      "WHERE t.name = ? ORDER BY b.program DESC, b.object LIMIT 1");
  if (!S)
    return S.takeError();
  S->bindText(0, Path);
  S->bindText(1, TestId);
  std::optional<Boundary> Out;
  if (llvm::Error E = S->forEachRow([&] {
        Out =
            Boundary{S->columnText(0), S->columnBool(1), /*Covered=*/true, ""};
      }))
    return E;
  return Out;
}

llvm::Expected<std::vector<BoundaryReader>>
Store::testsBehindBoundary(llvm::StringRef Path) {
  auto S = DB->statement(
      "SELECT DISTINCT t.name, b.object, b.program, b.problem "
      "FROM boundary_sources s "
      "JOIN test_boundaries b ON b.object = s.object AND b.covered = 0 "
      "JOIN tests t ON t.id = b.test_id "
      "WHERE s.path = ? OR s.path = '*' ORDER BY t.name, b.object");
  if (!S)
    return S.takeError();
  S->bindText(0, Path);
  std::vector<BoundaryReader> Out;
  if (llvm::Error E = S->forEachRow([&] {
        Out.push_back({S->columnText(0), S->columnText(1), S->columnBool(2),
                       S->columnText(3)});
      }))
    return E;
  return Out;
}

} // namespace tia
