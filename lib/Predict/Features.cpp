//===- Features.cpp - history replay and the T-TS feature rows ------------===//

#include "PredictInternal.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cmath>
#include <numeric>

namespace tia {
namespace predict {

namespace {

const char *const FileFeatureNames[FileFeatures] = {
    "status",     "added",       "deleted",    "authors",
    "changes_3d", "changes_14d", "changes_56d"};

float statusCode(git::ChangeStatus S) {
  switch (S) {
  case git::ChangeStatus::Added:
    return 1;
  case git::ChangeStatus::Deleted:
    return 2;
  case git::ChangeStatus::Modified:
    return 3;
  case git::ChangeStatus::Renamed:
    return 4;
  case git::ChangeStatus::Copied:
    return 5;
  case git::ChangeStatus::TypeChanged:
    return 6;
  }
  return 0;
}

/// Entries of sorted \p Times in [From, To).
size_t countIn(const std::vector<int64_t> &Times, int64_t From, int64_t To) {
  auto Lo = std::lower_bound(Times.begin(), Times.end(), From);
  auto Hi = std::lower_bound(Times.begin(), Times.end(), To);
  return Hi > Lo ? static_cast<size_t>(Hi - Lo) : 0;
}

/// Appends \p T keeping \p Times sorted (history is nearly chronological;
/// a commit dated before its parent is clamped to it).
void appendTime(std::vector<int64_t> &Times, int64_t T) {
  Times.push_back(Times.empty() ? T : std::max(T, Times.back()));
}

float ratio(double A, double B) {
  return B > 0 ? static_cast<float>(A / B) : Missing;
}

} // namespace

llvm::StringRef parentDir(llvm::StringRef Path) {
  size_t Slash = Path.rfind('/');
  return Slash == llvm::StringRef::npos ? llvm::StringRef()
                                        : Path.take_front(Slash);
}

unsigned directoryDistance(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallVector<llvm::StringRef, 8> DA, DB;
  parentDir(A).split(DA, '/', -1, /*KeepEmpty=*/false);
  parentDir(B).split(DB, '/', -1, /*KeepEmpty=*/false);
  size_t Common = 0;
  while (Common < DA.size() && Common < DB.size() && DA[Common] == DB[Common])
    ++Common;
  return static_cast<unsigned>(DA.size() - Common + DB.size() - Common);
}

unsigned extensionClass(llvm::StringRef Path) {
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  llvm::StringRef Ext = llvm::sys::path::extension(Name);
  if (llvm::is_contained({".c", ".cc", ".cpp", ".cxx", ".c++", ".m", ".mm"},
                         Ext))
    return 1;
  if (llvm::is_contained({".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".ipp"},
                         Ext))
    return 2;
  if (Ext == ".py" || Ext == ".pyi")
    return 3;
  if (Name == "CMakeLists.txt" || Ext == ".cmake" || Name == "Makefile" ||
      Name == "meson.build" || Ext == ".bzl" || Name == "BUILD" ||
      Name == "BUILD.bazel" || Name == "WORKSPACE" || Name == "setup.py" ||
      Name == "pyproject.toml" || Name == "conanfile.py")
    return 4;
  if (llvm::is_contained({".json", ".yaml", ".yml", ".toml", ".ini", ".cfg",
                          ".xml", ".txt", ".conf"},
                         Ext))
    return 5;
  return 6;
}

std::vector<std::string>
featureNames(const std::vector<std::string> &Vocabulary) {
  std::vector<std::string> Names = {
      "commit.files",         "commit.added",         "commit.deleted",
      "commit.unknown_files", "commit.unknown_added", "commit.unknown_deleted",
      "test.fail_rate_7d",    "test.fail_rate_14d",   "test.fail_rate_28d",
      "test.fail_rate_all",   "test.runs_28d",        "test.failed_last",
      "test.duration",        "cofail.file_rate",     "cofail.dir_rate",
      "cofail.file_count"};
  for (unsigned Slot = 0; Slot != CrossSlots; ++Slot) {
    std::string P = "cross" + std::to_string(Slot) + ".";
    Names.push_back(P + "distance");
    Names.push_back(P + "extension");
    for (const char *F : FileFeatureNames)
      Names.push_back(P + F);
  }
  Names.push_back("tia.covered_modified");
  Names.push_back("tia.selected");
  for (const std::string &Path : Vocabulary)
    for (const char *F : FileFeatureNames)
      Names.push_back("file[" + Path + "]." + F);
  return Names;
}

std::vector<git::FileStat>
mergeChanges(const std::vector<const git::CommitInfo *> &Commits) {
  std::map<std::string, git::FileStat> ByPath;
  for (const git::CommitInfo *C : Commits)
    for (const git::FileStat &F : C->Files) {
      auto [It, New] = ByPath.try_emplace(F.path(), F);
      if (New)
        continue;
      git::FileStat &M = It->second;
      M.Added += F.Added;
      M.Deleted += F.Deleted;
      M.NewPath = F.NewPath;
      M.NewBlob = F.NewBlob;
      M.Binary |= F.Binary;
      if (M.Status != git::ChangeStatus::Added ||
          F.Status == git::ChangeStatus::Deleted)
        M.Status = F.Status;
    }
  std::vector<git::FileStat> Out;
  for (auto &[Path, F] : ByPath)
    Out.push_back(std::move(F));
  return Out;
}

//===----------------------------------------------------------------------===//
// HistoryState
//===----------------------------------------------------------------------===//

std::vector<ChangedFile>
HistoryState::fileFeatures(const std::vector<git::FileStat> &Changed,
                           int64_t Time) const {
  std::vector<ChangedFile> Out;
  for (const git::FileStat &F : Changed) {
    ChangedFile C;
    C.Path = F.path();
    C.Values[FStatus] = statusCode(F.Status);
    C.Values[FAdded] = F.Added;
    C.Values[FDeleted] = F.Deleted;
    // A renamed file's history is under its old path until it is absorbed.
    const FileHistory *It = nullptr;
    for (const std::string &P : {F.path(), F.OldPath}) {
      auto Found = Files.find(P);
      if (!P.empty() && Found != Files.end()) {
        It = &Found->second;
        break;
      }
    }
    if (It) {
      C.Values[FAuthors] = It->Authors.size();
      C.Values[FChanges3] = countIn(It->Times, Time - 3 * Day, Time);
      C.Values[FChanges14] = countIn(It->Times, Time - 14 * Day, Time);
      C.Values[FChanges56] = countIn(It->Times, Time - 56 * Day, Time);
    } else {
      C.Values[FAuthors] = 0;
      C.Values[FChanges3] = C.Values[FChanges14] = C.Values[FChanges56] = 0;
    }
    Out.push_back(std::move(C));
  }
  llvm::sort(Out, [](const ChangedFile &L, const ChangedFile &R) {
    return L.Path < R.Path;
  });
  return Out;
}

std::array<float, FixedColumns> HistoryState::row(const ChangeFeatures &Change,
                                                  llvm::StringRef Test,
                                                  int64_t Time,
                                                  const Evidence *Ev) const {
  std::array<float, FixedColumns> R;
  R.fill(Missing);
  double Added = 0, Deleted = 0;
  for (const ChangedFile &F : Change.Files) {
    Added += F.Values[FAdded];
    Deleted += F.Values[FDeleted];
  }
  R[CFiles] = Change.Files.size();
  R[CAdded] = Added;
  R[CDeleted] = Deleted;

  auto TI = Tests.find(Test);
  if (TI != Tests.end()) {
    const TestHistory &H = TI->second;
    auto Window = [&](int64_t Days, float &Rate, size_t *Runs) {
      auto Lo =
          std::lower_bound(H.Times.begin(), H.Times.end(), Time - Days * Day) -
          H.Times.begin();
      auto Hi = std::lower_bound(H.Times.begin(), H.Times.end(), Time) -
                H.Times.begin();
      size_t N = Hi > Lo ? Hi - Lo : 0;
      if (Runs)
        *Runs = N;
      if (N == 0)
        return;
      unsigned Fails = H.CumFails[Hi - 1] - (Lo ? H.CumFails[Lo - 1] : 0);
      Rate = static_cast<float>(Fails) / N;
    };
    Window(7, R[CFailRate7], nullptr);
    Window(14, R[CFailRate14], nullptr);
    size_t Runs28 = 0;
    Window(28, R[CFailRate28], &Runs28);
    R[CRuns28] = Runs28;
    size_t Before = std::lower_bound(H.Times.begin(), H.Times.end(), Time) -
                    H.Times.begin();
    if (Before) {
      R[CFailRateAll] = static_cast<float>(H.CumFails[Before - 1]) / Before;
      unsigned LastFails =
          H.CumFails[Before - 1] - (Before > 1 ? H.CumFails[Before - 2] : 0);
      R[CFailedLast] = LastFails;
      // Mean duration of the recent runs, else of all.
      size_t From = Runs28 ? Before - Runs28 : 0;
      double Secs =
          H.CumSeconds[Before - 1] - (From ? H.CumSeconds[From - 1] : 0);
      R[CDuration] = Secs / (Before - From);
    }
    float FileRate = 0, DirRate = 0, FileCount = 0;
    for (const ChangedFile &F : Change.Files) {
      auto Tested = FileTested.find(F.Path);
      auto Fails = H.FailedWithFile.find(F.Path);
      if (Fails != H.FailedWithFile.end() && Tested != FileTested.end()) {
        FileRate = std::max(FileRate, ratio(Fails->second, Tested->second));
        FileCount = std::max(FileCount, static_cast<float>(Fails->second));
      }
      llvm::StringRef Dir = parentDir(F.Path);
      auto DirTestedIt = DirTested.find(Dir);
      auto DirFails = H.FailedWithDir.find(Dir);
      if (DirFails != H.FailedWithDir.end() && DirTestedIt != DirTested.end())
        DirRate =
            std::max(DirRate, ratio(DirFails->second, DirTestedIt->second));
    }
    R[CCofailFileRate] = FileRate;
    R[CCofailDirRate] = DirRate;
    R[CCofailFileCount] = FileCount;
  }

  // The three changed files nearest to the test's file.
  auto File = TestFiles.find(Test);
  if (File != TestFiles.end() && !File->second.empty()) {
    std::vector<std::pair<unsigned, size_t>> Near;
    for (size_t I = 0; I != Change.Files.size(); ++I)
      Near.emplace_back(directoryDistance(File->second, Change.Files[I].Path),
                        I);
    llvm::sort(Near); // ties by path, since Files are sorted by path
    for (unsigned Slot = 0; Slot != CrossSlots && Slot < Near.size(); ++Slot) {
      const ChangedFile &F = Change.Files[Near[Slot].second];
      unsigned Base = CCross + Slot * CrossWidth;
      R[Base] = Near[Slot].first;
      R[Base + 1] = extensionClass(F.Path);
      for (unsigned K = 0; K != FileFeatures; ++K)
        R[Base + 2 + K] = F.Values[K];
    }
  }

  if (Ev) {
    R[CCoveredModified] = Ev->CoveredModified;
    R[CSelected] = Ev->Selected;
  } else if (Change.Covered) {
    auto It = Change.Covered->find(Test);
    unsigned N = It == Change.Covered->end() ? 0 : It->second;
    R[CCoveredModified] = N;
    R[CSelected] = N > 0;
  }
  return R;
}

void HistoryState::absorbCommit(const git::CommitInfo &C) {
  for (const git::FileStat &F : C.Files) {
    if (F.Status == git::ChangeStatus::Renamed && !F.OldPath.empty()) {
      auto Old = Files.find(F.OldPath);
      if (Old != Files.end()) {
        FileHistory H = std::move(Old->second);
        Files.erase(Old);
        Files[F.NewPath] = std::move(H);
      }
    }
    FileHistory &H = Files[F.path()];
    appendTime(H.Times, C.Time);
    H.Authors.insert(C.AuthorEmail);
  }
}

void HistoryState::absorbOutcomes(int64_t Time,
                                  const std::vector<Observation> &Obs,
                                  const std::vector<ChangedFile> &Causes) {
  LastTime = std::max(LastTime, Time);
  llvm::StringSet<> Dirs;
  for (const ChangedFile &F : Causes) {
    ++FileTested[F.Path];
    Dirs.insert(parentDir(F.Path));
  }
  for (const auto &D : Dirs)
    ++DirTested[D.getKey()];
  for (const Observation &O : Obs) {
    TestHistory &H = Tests[O.Test];
    appendTime(H.Times, Time);
    H.CumFails.push_back((H.CumFails.empty() ? 0 : H.CumFails.back()) +
                         O.Failed);
    H.CumSeconds.push_back((H.CumSeconds.empty() ? 0 : H.CumSeconds.back()) +
                           O.Seconds);
    if (!O.Failed)
      continue;
    for (const ChangedFile &F : Causes)
      ++H.FailedWithFile[F.Path];
    for (const auto &D : Dirs)
      ++H.FailedWithDir[D.getKey()];
  }
}

//===----------------------------------------------------------------------===//
// Layout and the heuristic order
//===----------------------------------------------------------------------===//

SparseRows layOut(const std::vector<Row> &Rows,
                  const std::vector<ChangeFeatures> &Changes,
                  const llvm::StringMap<unsigned> &Vocabulary) {
  SparseRows X;
  std::vector<std::pair<unsigned, const ChangedFile *>> Slots;
  for (const Row &R : Rows) {
    std::array<float, FixedColumns> Fixed = R.Fixed;
    const ChangeFeatures &C = Changes[R.Change];
    Slots.clear();
    float Unknown = 0, UnknownAdded = 0, UnknownDeleted = 0;
    for (const ChangedFile &F : C.Files) {
      auto It = Vocabulary.find(F.Path);
      if (It != Vocabulary.end()) {
        Slots.emplace_back(It->second, &F);
        continue;
      }
      ++Unknown;
      UnknownAdded += F.Values[FAdded];
      UnknownDeleted += F.Values[FDeleted];
    }
    Fixed[CUnknownFiles] = Unknown;
    Fixed[CUnknownAdded] = UnknownAdded;
    Fixed[CUnknownDeleted] = UnknownDeleted;
    X.startRow();
    for (unsigned I = 0; I != FixedColumns; ++I)
      if (!std::isnan(Fixed[I]))
        X.add(I, Fixed[I]);
    llvm::sort(Slots,
               [](const auto &L, const auto &R) { return L.first < R.first; });
    for (auto [Slot, F] : Slots)
      for (unsigned K = 0; K != FileFeatures; ++K)
        X.add(FixedColumns + Slot * FileFeatures + K, F->Values[K]);
  }
  return X;
}

/// A mean duration \p Seconds as the order sees it: its power-of-two
/// step above a tenth of a second, so that the few milliseconds a loaded
/// machine adds do not reorder quick tests (which keep the order of their
/// names); never run: last.
static float durationStep(float Seconds) {
  if (std::isnan(Seconds))
    return std::numeric_limits<float>::max();
  return Seconds <= 0.1f ? 0.0f : std::ceil(std::log2(Seconds / 0.1f));
}

std::vector<size_t> heuristicOrder(const std::vector<Row> &Rows) {
  std::vector<size_t> Order(Rows.size());
  std::iota(Order.begin(), Order.end(), 0);
  auto Key = [&](size_t I) {
    const auto &F = Rows[I].Fixed;
    auto Or = [](float V, float Default) {
      return std::isnan(V) ? Default : V;
    };
    // Ascending sort: negate what should come first when large.
    return std::make_tuple(-Or(F[CFailedLast], 0), -Or(F[CCoveredModified], 0),
                           -Or(F[CFailRateAll], 0), durationStep(F[CDuration]));
  };
  std::stable_sort(Order.begin(), Order.end(), [&](size_t L, size_t R) {
    auto KL = Key(L), KR = Key(R);
    if (KL != KR)
      return KL < KR;
    return Rows[L].Test < Rows[R].Test;
  });
  return Order;
}

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

std::string encodeMeta(const ModelMeta &M) {
  llvm::json::Array Vocabulary, Curve;
  for (const std::string &P : M.Vocabulary)
    Vocabulary.push_back(llvm::json::isUTF8(P) ? P : llvm::json::fixUTF8(P));
  for (double V : M.Summary.Curve)
    Curve.push_back(V);
  llvm::json::Object O{
      {"since", M.Since},
      {"params", M.Params.describe()},
      {"vocabulary", std::move(Vocabulary)},
      {"fixed_columns", static_cast<int64_t>(FixedColumns)},
      {"samples", static_cast<int64_t>(M.Summary.Samples)},
      {"positives", static_cast<int64_t>(M.Summary.Positives)},
      {"commits", static_cast<int64_t>(M.Summary.Commits)},
      {"validation_f1", M.Summary.ValidationF1},
      {"curve", std::move(Curve)},
  };
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << llvm::json::Value(std::move(O));
  return OS.str();
}

llvm::Expected<ModelMeta> decodeMeta(llvm::StringRef Json) {
  auto Bad = [](const llvm::Twine &Why) {
    return makeError("the stored model's metadata is malformed: " + Why +
                     " (run 'tia train' again)");
  };
  auto V = llvm::json::parse(Json);
  if (!V)
    return Bad(llvm::toString(V.takeError()));
  const llvm::json::Object *O = V->getAsObject();
  if (!O)
    return Bad("not an object");
  ModelMeta M;
  std::optional<int64_t> Fixed = O->getInteger("fixed_columns");
  if (!Fixed || *Fixed != FixedColumns)
    return Bad("it has another feature layout");
  M.Since = O->getInteger("since").value_or(0);
  if (auto P = O->getString("params")) {
    auto Params = BoostParams::parse(*P);
    if (!Params)
      return Bad(llvm::toString(Params.takeError()));
    M.Params = *Params;
    M.Summary.Params = P->str();
  }
  const llvm::json::Array *Vocabulary = O->getArray("vocabulary");
  if (!Vocabulary)
    return Bad("no vocabulary");
  for (const llvm::json::Value &P : *Vocabulary) {
    std::optional<llvm::StringRef> S = P.getAsString();
    if (!S)
      return Bad("a vocabulary entry is not a string");
    M.Vocabulary.push_back(S->str());
  }
  M.Summary.Samples = O->getInteger("samples").value_or(0);
  M.Summary.Positives = O->getInteger("positives").value_or(0);
  M.Summary.Commits = O->getInteger("commits").value_or(0);
  M.Summary.ValidationF1 = O->getNumber("validation_f1").value_or(0);
  if (const llvm::json::Array *Curve = O->getArray("curve"))
    for (const llvm::json::Value &P : *Curve)
      M.Summary.Curve.push_back(P.getAsNumber().value_or(0));
  return M;
}

} // namespace predict
} // namespace tia
