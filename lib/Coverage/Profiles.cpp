//===- Profiles.cpp - clang profiles and binaries, read in-process --------===//

#include "tia/Coverage/Profiles.h"
#include "tia/Support/Error.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/ProfileData/Coverage/CoverageMapping.h"
#include "llvm/ProfileData/Coverage/CoverageMappingReader.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/ProfileData/InstrProfWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <set>

namespace tia {
namespace coverage {

llvm::StringRef coverageFlagsHint() {
  return "-fprofile-instr-generate -fcoverage-mapping (clang) or --coverage "
         "(gcc), for compiling and linking";
}

namespace {

/// \p Path read as an object file, kept with its bytes.
struct OpenedObject {
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  std::unique_ptr<llvm::object::ObjectFile> Object;
};

llvm::Expected<OpenedObject> openObject(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return makeErrorf("cannot read {0}: {1}", Path, Buf.getError().message());
  auto Obj = llvm::object::ObjectFile::createObjectFile(**Buf);
  if (!Obj)
    return makeErrorf("cannot read {0}: {1}", Path,
                      llvm::toString(Obj.takeError()));
  return OpenedObject{std::move(*Buf), std::move(*Obj)};
}

/// The virtual address of the loadable segment at file offset 0: what the
/// dynamic loader maps at the object's load address.
uint64_t firstSegmentAddress(const llvm::object::ELF64LEObjectFile &Elf) {
  auto Headers = Elf.getELFFile().program_headers();
  if (!Headers) {
    llvm::consumeError(Headers.takeError()); // Read as if at 0.
    return 0;
  }
  for (const auto &H : *Headers)
    if (H.p_type == llvm::ELF::PT_LOAD && H.p_offset == 0)
      return H.p_vaddr;
  return 0;
}

/// \p Sym's address relative to \p Base, the address of file offset 0;
/// 0 when it has none there.
uint64_t offsetOf(const llvm::object::ELFSymbolRef &Sym, uint64_t Base) {
  llvm::Expected<uint64_t> Address = Sym.getAddress();
  if (!Address) {
    llvm::consumeError(Address.takeError()); // Counts as missing.
    return 0;
  }
  return *Address >= Base ? *Address - Base : 0;
}

/// gcc's counter arrays: "__gcov0.f", "__gcov3.g" (the kind, then the
/// function); "__gcov_.f" is the function's description, not counters.
bool isGcovCounters(llvm::StringRef Name) {
  if (!Name.consume_front("__gcov"))
    return false;
  size_t Digits = Name.find_first_not_of("0123456789");
  return Digits > 0 && Digits != llvm::StringRef::npos && Name[Digits] == '.';
}

} // namespace

llvm::Expected<LibraryProbe> probeLibrary(llvm::StringRef Path) {
  auto O = openObject(Path);
  if (!O)
    return O.takeError();
  const auto *Elf =
      llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(O->Object.get());
  if (!Elf)
    return makeErrorf("cannot read {0}: not a 64-bit ELF object", Path);
  LibraryProbe P;
  bool Counters = false, Mapping = false;
  for (const llvm::object::SectionRef &S : Elf->sections()) {
    llvm::Expected<llvm::StringRef> Name = S.getName();
    if (!Name) {
      llvm::consumeError(Name.takeError()); // An unnamed section tells nothing.
      continue;
    }
    Counters |= Name->contains("llvm_prf_cnts");
    Mapping |= Name->contains("llvm_covmap") || Name->contains("llvm_covfun");
  }
  uint64_t Base = firstSegmentAddress(*Elf);
  ProfileRuntime R;
  std::pair<llvm::StringRef, uint64_t *> Wanted[] = {
      {"__llvm_profile_set_filename", &R.SetFilename},
      {"__llvm_profile_write_file", &R.WriteFile},
      {"__llvm_profile_reset_counters", &R.ResetCounters}};
  bool Gcov = false;
  GcovRuntime G;
  for (const llvm::object::ELFSymbolRef Sym : Elf->symbols()) {
    llvm::Expected<llvm::StringRef> Name = Sym.getName();
    if (!Name) {
      llvm::consumeError(Name.takeError()); // Not one of ours.
      continue;
    }
    Gcov |= *Name == "__gcov_init" || *Name == "__gcov_merge_add";
    uint64_t Offset = offsetOf(Sym, Base);
    for (auto &[Want, Slot] : Wanted)
      if (*Name == Want)
        *Slot = Offset;
    if (*Name == "__gcov_dump_one")
      G.DumpOne = Offset;
    else if (*Name == "__gcov_root")
      G.Root = Offset;
    else if (isGcovCounters(*Name) && Offset && Sym.getSize())
      G.Counters.emplace_back(Offset, Sym.getSize());
  }
  if (Counters)
    P.Kind = Mapping ? Instrumentation::Clang : Instrumentation::ClangNoMapping;
  else if (Gcov)
    P.Kind = Instrumentation::Gcov;
  if (P.Kind == Instrumentation::Clang &&
      llvm::all_of(Wanted, [](const auto &W) { return *W.second != 0; }))
    P.Runtime = R;
  if (P.Kind == Instrumentation::Gcov && G.DumpOne && G.Root &&
      !G.Counters.empty()) {
    llvm::sort(G.Counters);
    P.Gcov = std::move(G);
  }
  return P;
}

llvm::Expected<std::vector<std::string>>
coverageMappingFiles(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return makeErrorf("cannot read {0}: {1}", Path, Buf.getError().message());
  llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>, 1> Kept;
  auto Readers = llvm::coverage::BinaryCoverageReader::create(
      (*Buf)->getMemBufferRef(), /*Arch=*/"", Kept);
  if (!Readers) {
    llvm::consumeError(Readers.takeError()); // Replaced by a clearer one.
    return makeErrorf("{0} has no coverage mapping", Path);
  }
  std::set<std::string> Files;
  for (auto &Reader : *Readers)
    for (auto &&Record : *Reader) {
      if (!Record) {
        llvm::consumeError(Record.takeError()); // The others still tell.
        continue;
      }
      for (llvm::StringRef F : Record->Filenames)
        Files.insert(F.str());
    }
  return std::vector<std::string>(Files.begin(), Files.end());
}

llvm::Expected<DefinedFunctions> definedFunctions(llvm::StringRef Path) {
  auto O = openObject(Path);
  if (!O)
    return O.takeError();
  std::set<std::string> Names;
  auto Collect = [&](auto Symbols) {
    for (const llvm::object::SymbolRef &Sym : Symbols) {
      llvm::Expected<llvm::object::SymbolRef::Type> Type = Sym.getType();
      llvm::Expected<uint32_t> Flags = Sym.getFlags();
      llvm::Expected<llvm::StringRef> Name = Sym.getName();
      if (!Type || !Flags || !Name) {
        // A symbol that cannot be read names no function we can use.
        llvm::consumeError(Type.takeError());
        llvm::consumeError(Flags.takeError());
        llvm::consumeError(Name.takeError());
        continue;
      }
      if (*Type == llvm::object::SymbolRef::ST_Function &&
          !(*Flags & llvm::object::SymbolRef::SF_Undefined) && !Name->empty())
        Names.insert(Name->str());
    }
  };
  DefinedFunctions Out;
  Collect(O->Object->symbols());
  if (Names.empty())
    if (const auto *Elf =
            llvm::dyn_cast<llvm::object::ELFObjectFileBase>(O->Object.get())) {
      Collect(Elf->getDynamicSymbolIterators());
      Out.ExportedOnly = true;
    }
  Out.Names.assign(Names.begin(), Names.end());
  return Out;
}

void splitProfileName(llvm::StringRef Raw, FunctionHit &Hit) {
  // Mangled names and C identifiers contain neither ':' nor ';'.
  size_t Sep = Raw.find_last_of(":;");
  if (Sep == llvm::StringRef::npos) {
    Hit.Name = Raw.str();
    return;
  }
  Hit.Name = Raw.substr(Sep + 1).str();
  Hit.LocalPrefix = Raw.substr(0, Sep).str();
}

llvm::Expected<BinaryProbe> probeBinary(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return makeErrorf("cannot read test binary {0}: {1}", Path,
                      Buf.getError().message());
  auto Obj = llvm::object::ObjectFile::createObjectFile(**Buf);
  if (!Obj)
    return makeErrorf("cannot read test binary {0}: {1}", Path,
                      llvm::toString(Obj.takeError()));
  BinaryProbe P;
  bool Counters = false, Mapping = false;
  for (const llvm::object::SectionRef &S : (*Obj)->sections()) {
    llvm::Expected<llvm::StringRef> Name = S.getName();
    if (!Name) {
      llvm::consumeError(Name.takeError()); // An unnamed section tells nothing.
      continue;
    }
    if (Name->contains("llvm_prf_cnts"))
      Counters = true;
    if (Name->contains("llvm_covmap") || Name->contains("llvm_covfun"))
      Mapping = true;
  }
  llvm::StringRef Bytes = (*Buf)->getBuffer();
  if (Counters)
    P.Kind = Mapping ? Instrumentation::Clang : Instrumentation::ClangNoMapping;
  // libgcov's entry points, in the symbol table or, stripped, the names of
  // the data files the binary writes.
  else if (Bytes.contains("__gcov_init") ||
           Bytes.contains("__gcov_merge_add") || Bytes.contains(".gcda"))
    P.Kind = Instrumentation::Gcov;
  P.HasListener = Bytes.contains("tia-gtest-listener-v1") ||
                  Bytes.contains("tia-catch2-listener-v1") ||
                  Bytes.contains("tia-doctest-listener-v1") ||
                  Bytes.contains("tia-boost-listener-v1");
  return P;
}

llvm::Expected<std::unique_ptr<ClangCoverage>>
ClangCoverage::open(llvm::ArrayRef<std::string> Objects) {
  std::unique_ptr<ClangCoverage> C(new ClangCoverage());
  for (const std::string &Path : Objects) {
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
    if (!Buf)
      return makeErrorf("cannot read test binary {0}: {1}", Path,
                        Buf.getError().message());
    // Reading the mapping once here finds a binary without one early.
    llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>, 1> Kept;
    auto Readers = llvm::coverage::BinaryCoverageReader::create(
        (*Buf)->getMemBufferRef(), /*Arch=*/"", Kept);
    if (!Readers) {
      llvm::consumeError(Readers.takeError()); // Replaced by a clearer one.
      return makeErrorf("{0} has no coverage mapping: rebuild it with {1}",
                        Path, coverageFlagsHint());
    }
    C->Paths.push_back(Path);
    C->Buffers.push_back(std::move(*Buf));
  }
  return C;
}

llvm::Expected<std::vector<FunctionHit>>
ClangCoverage::functionsRun(llvm::ArrayRef<std::string> RawProfiles) const {
  // Merge the raw profiles into one indexed profile in memory.
  llvm::InstrProfWriter Writer;
  auto FS = llvm::vfs::getRealFileSystem();
  for (const std::string &Raw : RawProfiles) {
    auto Fail = [&](llvm::Error E) {
      return makeErrorf("cannot read profile {0}: {1}", Raw,
                        llvm::toString(std::move(E)));
    };
    auto Reader = llvm::InstrProfReader::create(Raw, *FS);
    if (!Reader)
      return Fail(Reader.takeError());
    if (llvm::Error E = Writer.mergeProfileKind((*Reader)->getProfileKind()))
      return Fail(std::move(E));
    llvm::Error Warning = llvm::Error::success();
    for (llvm::NamedInstrProfRecord &R : **Reader)
      Writer.addRecord(std::move(R), 1, [&](llvm::Error E) {
        if (!Warning)
          Warning = std::move(E);
        else
          llvm::consumeError(std::move(E)); // The first one is enough.
      });
    if (Warning)
      return Fail(std::move(Warning));
    if ((*Reader)->hasError())
      return Fail((*Reader)->getError());
  }
  std::unique_ptr<llvm::MemoryBuffer> Indexed = Writer.writeBuffer();
  auto Profile = llvm::IndexedInstrProfReader::create(std::move(Indexed));
  if (!Profile)
    return makeErrorf("cannot merge the profiles {0}: {1}",
                      llvm::join(RawProfiles, ", "),
                      llvm::toString(Profile.takeError()));

  // Readers of the kept mappings: each load consumes its readers.
  std::vector<std::unique_ptr<llvm::coverage::CoverageMappingReader>> Readers;
  llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>, 1> Kept;
  for (size_t I = 0; I < Buffers.size(); ++I) {
    auto Rs = llvm::coverage::BinaryCoverageReader::create(
        Buffers[I]->getMemBufferRef(), /*Arch=*/"", Kept);
    if (!Rs)
      return makeErrorf("cannot read the coverage mapping of {0}: {1}",
                        Paths[I], llvm::toString(Rs.takeError()));
    for (auto &R : *Rs)
      Readers.push_back(std::move(R));
  }
  auto Mapping = llvm::coverage::CoverageMapping::load(Readers, **Profile);
  if (!Mapping)
    return makeErrorf("cannot read the coverage of {0} with the profiles "
                      "{1}: {2}",
                      llvm::join(Paths, ", "), llvm::join(RawProfiles, ", "),
                      llvm::toString(Mapping.takeError()));

  std::vector<FunctionHit> Hits;
  for (const llvm::coverage::FunctionRecord &F :
       (*Mapping)->getCoveredFunctions()) {
    if (F.ExecutionCount == 0)
      continue;
    FunctionHit H;
    splitProfileName(F.Name, H);
    if (!F.Filenames.empty())
      H.File = F.Filenames.front();
    if (!F.CountedRegions.empty())
      H.Line = F.CountedRegions.front().LineStart;
    Hits.push_back(std::move(H));
  }
  return Hits;
}

} // namespace coverage
} // namespace tia
