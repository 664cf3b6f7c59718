/*===- FileReadTracer.c - the files a C/C++ test process reads ------------===//
//
// `tia collect` loads this library into every test process with LD_PRELOAD
// (tia carries it inside its own binary and writes it to its temporary
// folder). While TIA_READS_FILE names a file, it appends one line to that
// file for each file or directory the process opens, lists, creates or
// truncates, first time only:
//
//   p PID      this process loaded the tracer (tia knows the record is real)
//   r PATH     opened for reading (or for reading and writing)
//   w PATH     created or truncated: what it reads from now on, it made
//   l PATH     a directory opened or listed
//   L PATH     the same, by the test's runner (lit), while it looks for
//              its tests: what a new test file there changes is that one
//              test, which selection finds by its file
//
// PATH is absolute, with '%' and line breaks escaped (%25, %0A, %0D). tia's
// listeners point TIA_READS_FILE at a file per test case when a case starts
// and back when it ends, as they do with the coverage counters; without a
// listener, tia runs each case in a process of its own with a file of its
// own. Processes a test starts inherit the variables, and the exec and
// spawn calls given an environment of their own get them put back, so a
// child's reads go where its parent's do. A process whose own reads are
// traced by other means (pytest and the Python processes tia follows:
// tia's audit hook) is skipped while TIA_READS_SKIP_SELF holds its process
// id, or was "start" when it started; the programs it runs are traced.
//
// Why LD_PRELOAD: it sees the calls of every library in the process
// (libstdc++'s std::ifstream calls fopen64 and open, std::filesystem calls
// opendir), costs one getenv per call while no file is named, and needs no
// privileges (seccomp user notification and fanotify need a kernel and
// rights CI runners often lack, ptrace stops at every system call). What it
// cannot see, docs/Safety.md lists: statically linked programs, raw system
// calls, io_uring, files mapped or opened by the dynamic loader.
//
// Written in C: a test process of any language loads it without pulling in
// libstdc++.
//
//===----------------------------------------------------------------------===*/

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

extern char **environ;

/*===----------------------------------------------------------------------===
// The reads file and what this process wrote to it
//===----------------------------------------------------------------------===*/

static const char ReadsVariable[] = "TIA_READS_FILE";
/* TIA_READS_FILE when the process started: where its reads go if it
   clears its environment (as `env -i` does before it runs a program). */
static char StartFile[PATH_MAX];
/* The process traced by other means: only its children here. */
static const char SkipSelfVariable[] = "TIA_READS_SKIP_SELF";
static int SkippedFromStart;
/* The test's runner (lit): tia sets TIA_READS_RUNNER to its own process id
   for the process it starts, which is the runner when tia is its parent,
   and takes the variable away, so that no program the runner starts (nor
   a fork of it) counts as the runner. */
static const char RunnerVariable[] = "TIA_READS_RUNNER";
static int Runner;
/* Set once this process wrote its "p PID" line. */
static int Announced;

static int skipSelf(void) {
  if (SkippedFromStart)
    return 1;
  const char *Pid = getenv(SkipSelfVariable);
  return Pid && atoi(Pid) == (int)getpid();
}

/* The reads file now; null when nothing is traced. */
static const char *readsFile(void) {
  const char *File = getenv(ReadsVariable);
  if (File && *File)
    return File;
  return StartFile[0] ? StartFile : NULL;
}

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
/* Set while the tracer itself works: its own calls are not the test's. */
static __thread int Busy __attribute__((tls_model("initial-exec")));

static char CurrentFile[PATH_MAX]; /* the reads file Fd appends to */
static int Fd = -1;
static pid_t FdPid;    /* the process that opened Fd */
static dev_t FdDevice; /* Fd's file, to tell when a test */
static ino_t FdInode;  /* closed it and reused the number */

/* The lines this process wrote to CurrentFile: each is written once. */
struct Seen {
  struct Seen *Next;
  char Line[];
};
#define SEEN_BUCKETS 4096
static struct Seen *SeenLines[SEEN_BUCKETS];

static unsigned long hashOf(const char *Text) {
  unsigned long H = 14695981039346656037UL;
  for (; *Text; ++Text)
    H = (H ^ (unsigned char)*Text) * 1099511628211UL;
  return H;
}

static void forgetSeen(void) {
  for (int I = 0; I < SEEN_BUCKETS; ++I) {
    while (SeenLines[I]) {
      struct Seen *Next = SeenLines[I]->Next;
      free(SeenLines[I]);
      SeenLines[I] = Next;
    }
  }
}

/* True the first time \p Line is asked about since CurrentFile changed. */
static int firstTime(const char *Line) {
  unsigned long H = hashOf(Line) % SEEN_BUCKETS;
  for (struct Seen *S = SeenLines[H]; S; S = S->Next)
    if (strcmp(S->Line, Line) == 0)
      return 0;
  size_t Size = strlen(Line) + 1;
  struct Seen *S = malloc(sizeof(struct Seen) + Size);
  if (!S)
    return 1;
  memcpy(S->Line, Line, Size);
  S->Next = SeenLines[H];
  SeenLines[H] = S;
  return 1;
}

/* True when Fd is still the reads file this process opened: a test may
   close every descriptor, and a number may come back for its own file. */
static int fdStillOurs(void) {
  struct stat St;
  return Fd >= 0 && FdPid == getpid() && fstat(Fd, &St) == 0 &&
         St.st_dev == FdDevice && St.st_ino == FdInode;
}

/* Points Fd at \p File, opened directly with the system call so that no
   interposer (this one or another) sees it. */
static int useFile(const char *File) {
  if (strcmp(File, CurrentFile) == 0 && fdStillOurs())
    return 1;
  if (strcmp(File, CurrentFile) != 0)
    forgetSeen(); /* another case: its lines are all new */
  if (fdStillOurs())
    close(Fd);
  Fd = (int)syscall(SYS_openat, AT_FDCWD, File,
                    O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  CurrentFile[0] = 0;
  struct stat St;
  if (Fd < 0 || fstat(Fd, &St) != 0 || strlen(File) >= sizeof CurrentFile)
    return 0;
  FdPid = getpid();
  FdDevice = St.st_dev;
  FdInode = St.st_ino;
  strcpy(CurrentFile, File);
  return 1;
}

/* Appends "KIND TEXT\n", escaped, once per reads file. One write(2) per
   line to a file opened O_APPEND: the lines of processes writing at once
   do not mix. */
static void writeLine(char Kind, const char *Text) {
  const char *File = readsFile();
  if (!File)
    return;
  char Line[3 * PATH_MAX + 4];
  size_t N = 0;
  Line[N++] = Kind;
  Line[N++] = ' ';
  for (const char *C = Text; *C && N + 4 < sizeof Line; ++C) {
    const char *Escape = *C == '%'    ? "%25"
                         : *C == '\n' ? "%0A"
                         : *C == '\r' ? "%0D"
                                      : NULL;
    if (Escape) {
      memcpy(Line + N, Escape, 3);
      N += 3;
    } else {
      Line[N++] = *C;
    }
  }
  Line[N] = 0;
  pthread_mutex_lock(&Lock);
  if (useFile(File) && firstTime(Line)) {
    Line[N++] = '\n';
    ssize_t Ignored = write(Fd, Line, N);
    (void)Ignored;
  }
  pthread_mutex_unlock(&Lock);
}

static int tracing(void) { return !Busy && readsFile() && !skipSelf(); }

/*===----------------------------------------------------------------------===
// Paths
//===----------------------------------------------------------------------===*/

/* \p Path (relative to \p DirFd, AT_FDCWD for the working directory) made
   absolute in \p Out; false when it cannot be. */
static int absolutePath(int DirFd, const char *Path, char *Out, size_t Size) {
  if (!Path || !*Path)
    return 0;
  if (Path[0] == '/')
    return snprintf(Out, Size, "%s", Path) < (int)Size;
  char Base[PATH_MAX];
  if (DirFd == AT_FDCWD) {
    if (!getcwd(Base, sizeof Base))
      return 0;
  } else {
    char Link[64];
    snprintf(Link, sizeof Link, "/proc/self/fd/%d", DirFd);
    ssize_t N = readlink(Link, Base, sizeof Base - 1);
    if (N <= 0)
      return 0;
    Base[N] = 0;
  }
  return snprintf(Out, Size, "%s/%s", Base, Path) < (int)Size;
}

/* The kernel's own files and devices are no test data. */
static int isSystemPath(const char *Path) {
  return strncmp(Path, "/proc/", 6) == 0 || strncmp(Path, "/sys/", 5) == 0 ||
         strncmp(Path, "/dev/", 5) == 0;
}

/*===----------------------------------------------------------------------===
// Opens
//===----------------------------------------------------------------------===*/

/* What tracing one open knows before the call: the path, and whether the
   file existed (an O_CREAT that makes it is a write, not a read). */
struct PendingOpen {
  int Traced;
  int Existed;
  char Path[PATH_MAX];
};

static void beforeOpen(struct PendingOpen *P, int DirFd, const char *Path,
                       int Flags) {
  P->Traced = 0;
  if (!tracing() || (Flags & (O_PATH | __O_TMPFILE)))
    return; /* no file's content: a handle, or a file with no name */
  Busy = 1;
  if (absolutePath(DirFd, Path, P->Path, sizeof P->Path) &&
      !isSystemPath(P->Path)) {
    P->Traced = 1;
    P->Existed = !(Flags & O_CREAT) || faccessat(DirFd, Path, F_OK, 0) == 0;
  }
  Busy = 0;
}

/* Records the open that gave \p Result (a descriptor, or -1). */
static void afterOpen(const struct PendingOpen *P, int Flags, int Result) {
  if (!P->Traced || Result < 0)
    return;
  Busy = 1;
  int Access = Flags & O_ACCMODE;
  struct stat St;
  if ((Flags & O_TRUNC) || !P->Existed)
    writeLine('w', P->Path);
  else if (fstat(Result, &St) == 0 && S_ISDIR(St.st_mode))
    writeLine(Runner ? 'L' : 'l',
              P->Path); /* read with getdents, or a base for openat */
  else if (Access != O_WRONLY)
    writeLine('r', P->Path);
  Busy = 0;
}

/* open(2)'s flags for fopen's \p Mode. */
static int flagsOfMode(const char *Mode) {
  int Flags;
  switch (Mode[0]) {
  case 'r':
    Flags = 0;
    break;
  case 'w':
    Flags = O_CREAT | O_TRUNC;
    break;
  case 'a':
    Flags = O_CREAT | O_APPEND;
    break;
  default:
    return O_RDONLY;
  }
  int Plus = strchr(Mode, '+') != NULL;
  Flags |= Plus ? O_RDWR : (Mode[0] == 'r' ? O_RDONLY : O_WRONLY);
  if (strchr(Mode, 'x'))
    Flags |= O_EXCL;
  return Flags;
}

/* The function \p Name of the next library (libc), found once. */
#define NEXT(Type, Name)                                                       \
  static Type Real;                                                            \
  if (!Real)                                                                   \
    Real = (Type)dlsym(RTLD_NEXT, Name);

#define MODE_ARGUMENT(Flags, Mode)                                             \
  mode_t Mode = 0;                                                             \
  if ((Flags) & (O_CREAT | __O_TMPFILE)) {                                     \
    va_list Args;                                                              \
    va_start(Args, Flags);                                                     \
    Mode = va_arg(Args, mode_t);                                               \
    va_end(Args);                                                              \
  }

#define TRACED_OPEN(DirFd, Path, Flags, Call)                                  \
  struct PendingOpen P;                                                        \
  beforeOpen(&P, DirFd, Path, Flags);                                          \
  int Result = Call;                                                           \
  afterOpen(&P, Flags, Result);                                                \
  return Result;

typedef int (*OpenFn)(const char *, int, ...);
typedef int (*OpenAtFn)(int, const char *, int, ...);
typedef int (*Open2Fn)(const char *, int);
typedef int (*OpenAt2Fn)(int, const char *, int);

EXPORT int open(const char *Path, int Flags, ...) {
  NEXT(OpenFn, "open");
  MODE_ARGUMENT(Flags, Mode);
  TRACED_OPEN(AT_FDCWD, Path, Flags, Real(Path, Flags, Mode));
}

EXPORT int open64(const char *Path, int Flags, ...) {
  NEXT(OpenFn, "open64");
  MODE_ARGUMENT(Flags, Mode);
  TRACED_OPEN(AT_FDCWD, Path, Flags, Real(Path, Flags, Mode));
}

EXPORT int openat(int DirFd, const char *Path, int Flags, ...) {
  NEXT(OpenAtFn, "openat");
  MODE_ARGUMENT(Flags, Mode);
  TRACED_OPEN(DirFd, Path, Flags, Real(DirFd, Path, Flags, Mode));
}

EXPORT int openat64(int DirFd, const char *Path, int Flags, ...) {
  NEXT(OpenAtFn, "openat64");
  MODE_ARGUMENT(Flags, Mode);
  TRACED_OPEN(DirFd, Path, Flags, Real(DirFd, Path, Flags, Mode));
}

/* The checked forms _FORTIFY_SOURCE builds call. */
EXPORT int __open_2(const char *Path, int Flags) {
  NEXT(Open2Fn, "__open_2");
  TRACED_OPEN(AT_FDCWD, Path, Flags, Real(Path, Flags));
}

EXPORT int __open64_2(const char *Path, int Flags) {
  NEXT(Open2Fn, "__open64_2");
  TRACED_OPEN(AT_FDCWD, Path, Flags, Real(Path, Flags));
}

EXPORT int __openat_2(int DirFd, const char *Path, int Flags) {
  NEXT(OpenAt2Fn, "__openat_2");
  TRACED_OPEN(DirFd, Path, Flags, Real(DirFd, Path, Flags));
}

EXPORT int __openat64_2(int DirFd, const char *Path, int Flags) {
  NEXT(OpenAt2Fn, "__openat64_2");
  TRACED_OPEN(DirFd, Path, Flags, Real(DirFd, Path, Flags));
}

typedef int (*CreatFn)(const char *, mode_t);

EXPORT int creat(const char *Path, mode_t Mode) {
  NEXT(CreatFn, "creat");
  int Flags = O_CREAT | O_WRONLY | O_TRUNC;
  TRACED_OPEN(AT_FDCWD, Path, Flags, Real(Path, Mode));
}

EXPORT int creat64(const char *Path, mode_t Mode) {
  NEXT(CreatFn, "creat64");
  int Flags = O_CREAT | O_WRONLY | O_TRUNC;
  TRACED_OPEN(AT_FDCWD, Path, Flags, Real(Path, Mode));
}

#define TRACED_FOPEN(Path, Mode, Call)                                         \
  int Flags = flagsOfMode(Mode);                                               \
  struct PendingOpen P;                                                        \
  beforeOpen(&P, AT_FDCWD, Path, Flags);                                       \
  FILE *Result = Call;                                                         \
  afterOpen(&P, Flags, Result ? fileno(Result) : -1);                          \
  return Result;

typedef FILE *(*FopenFn)(const char *, const char *);
typedef FILE *(*FreopenFn)(const char *, const char *, FILE *);

EXPORT FILE *fopen(const char *Path, const char *Mode) {
  NEXT(FopenFn, "fopen");
  TRACED_FOPEN(Path, Mode, Real(Path, Mode));
}

EXPORT FILE *fopen64(const char *Path, const char *Mode) {
  NEXT(FopenFn, "fopen64");
  TRACED_FOPEN(Path, Mode, Real(Path, Mode));
}

/* A null path changes the mode of the stream's own file: no new file. */
EXPORT FILE *freopen(const char *Path, const char *Mode, FILE *Stream) {
  NEXT(FreopenFn, "freopen");
  if (!Path)
    return Real(Path, Mode, Stream);
  TRACED_FOPEN(Path, Mode, Real(Path, Mode, Stream));
}

EXPORT FILE *freopen64(const char *Path, const char *Mode, FILE *Stream) {
  NEXT(FreopenFn, "freopen64");
  if (!Path)
    return Real(Path, Mode, Stream);
  TRACED_FOPEN(Path, Mode, Real(Path, Mode, Stream));
}

/*===----------------------------------------------------------------------===
// Directory listings (libc opens these folders inside, unseen)
//===----------------------------------------------------------------------===*/

static void listed(int DirFd, const char *Path) {
  if (!tracing())
    return;
  Busy = 1;
  char Abs[PATH_MAX];
  if (absolutePath(DirFd, Path, Abs, sizeof Abs) && !isSystemPath(Abs))
    writeLine(Runner ? 'L' : 'l', Abs);
  Busy = 0;
}

typedef DIR *(*OpendirFn)(const char *);
typedef DIR *(*FdopendirFn)(int);

EXPORT DIR *opendir(const char *Path) {
  NEXT(OpendirFn, "opendir");
  DIR *Result = Real(Path);
  if (Result)
    listed(AT_FDCWD, Path);
  return Result;
}

EXPORT DIR *fdopendir(int Dir) {
  NEXT(FdopendirFn, "fdopendir");
  DIR *Result = Real(Dir);
  if (Result)
    listed(Dir, ".");
  return Result;
}

typedef int (*ScandirFn)(const char *, struct dirent ***,
                         int (*)(const struct dirent *),
                         int (*)(const struct dirent **,
                                 const struct dirent **));
typedef int (*Scandir64Fn)(const char *, struct dirent64 ***,
                           int (*)(const struct dirent64 *),
                           int (*)(const struct dirent64 **,
                                   const struct dirent64 **));

EXPORT int scandir(const char *Path, struct dirent ***List,
                   int (*Filter)(const struct dirent *),
                   int (*Compare)(const struct dirent **,
                                  const struct dirent **)) {
  NEXT(ScandirFn, "scandir");
  int Result = Real(Path, List, Filter, Compare);
  if (Result >= 0)
    listed(AT_FDCWD, Path);
  return Result;
}

EXPORT int scandir64(const char *Path, struct dirent64 ***List,
                     int (*Filter)(const struct dirent64 *),
                     int (*Compare)(const struct dirent64 **,
                                    const struct dirent64 **)) {
  NEXT(Scandir64Fn, "scandir64");
  int Result = Real(Path, List, Filter, Compare);
  if (Result >= 0)
    listed(AT_FDCWD, Path);
  return Result;
}

/*===----------------------------------------------------------------------===
// Child processes: an environment of their own keeps the tracer
//===----------------------------------------------------------------------===*/

static char TracerPath[PATH_MAX]; /* this library, for LD_PRELOAD */

static int isVariable(const char *Entry, const char *Name) {
  size_t Length = strlen(Name);
  return strncmp(Entry, Name, Length) == 0 && Entry[Length] == '=';
}

static size_t countOf(char *const *Env) {
  size_t Count = 0;
  while (Env && Env[Count])
    ++Count;
  return Count;
}

/* The coverage tools' variables: a child started with an environment of
   its own gets the values tia set for the running test back, so that its
   profile goes to tia's scratch folder, never to its working directory
   (clang's default.profraw) or beside the objects (gcov's .gcda files). */
static const char *const CarriedVariables[] = {
    "LLVM_PROFILE_FILE", "GCOV_PREFIX", "GCOV_PREFIX_STRIP"};
enum { CarriedCount = sizeof CarriedVariables / sizeof *CarriedVariables };
/* Their values when the process started: what a cleared environment had. */
static char StartCarried[CarriedCount][PATH_MAX];

static const char *carriedValue(int I) {
  const char *Value = getenv(CarriedVariables[I]);
  if (Value && *Value)
    return Value;
  return StartCarried[I][0] ? StartCarried[I] : NULL;
}

/* True when \p Entry is a carried variable that has a value here (and so
   is replaced). */
static int hasCarriedValue(const char *Entry) {
  for (int I = 0; I < CarriedCount; ++I)
    if (isVariable(Entry, CarriedVariables[I]))
      return carriedValue(I) != NULL;
  return 0;
}

/* True when \p Env sets each carried variable that has a value here to that
   value. */
static int hasCarried(char *const *Env) {
  for (int I = 0; I < CarriedCount; ++I) {
    const char *Value = carriedValue(I);
    if (!Value)
      continue;
    int Found = 0;
    size_t Length = strlen(CarriedVariables[I]);
    for (size_t J = 0; Env[J] && !Found; ++J)
      Found = isVariable(Env[J], CarriedVariables[I]) &&
              strcmp(Env[J] + Length + 1, Value) == 0;
    if (!Found)
      return 0;
  }
  return 1;
}

/* The room the variables withTracer() sets may need. */
static size_t variablesSize(char *const *Env) {
  size_t Preload = 0;
  for (size_t I = 0; Env && Env[I]; ++I)
    if (isVariable(Env[I], "LD_PRELOAD"))
      Preload = strlen(Env[I]);
  return sizeof ReadsVariable + PATH_MAX + sizeof TracerPath + Preload + 16 +
         CarriedCount * (PATH_MAX + 32);
}

/* True when LD_PRELOAD value \p Preload names another copy of tia's tracer
   first: a tia collect that a test runs (tia's own tests) starts its tests
   with its own tracer, reads file and profile variables, and those tests
   are its to trace, not this one's. A stale reads file alone (a child
   started with an environment copied during an earlier test) still names
   this tracer, and is replaced. */
static int namesOtherTracer(const char *Preload) {
  static const char Name[] = "/libtia-reads.so";
  const size_t NameLength = sizeof Name - 1;
  if (!Preload)
    return 0;
  size_t Length = strcspn(Preload, ": ");
  if (Length < NameLength ||
      strncmp(Preload + Length - NameLength, Name, NameLength) != 0)
    return 0;
  return strlen(TracerPath) != Length ||
         strncmp(Preload, TracerPath, Length) != 0;
}

/* \p Env, or \p Copy (room for its entries and CarriedCount + 3 more)
   holding it with LD_PRELOAD naming the tracer, TIA_READS_FILE the current
   reads file and the carried variables their values here, all written to
   \p Variables (variablesSize()). No allocation: the caller may be the
   child of a vfork. */
static char **withTracer(char *const *Env, char **Copy, char *Variables) {
  const char *File = readsFile();
  if (!File || !TracerPath[0] || !Env)
    return (char **)Env;
  const char *Preload = NULL;
  int HasFile = 0, HasSkip = 0;
  for (size_t I = 0; Env[I]; ++I) {
    if (isVariable(Env[I], "LD_PRELOAD"))
      Preload = Env[I] + strlen("LD_PRELOAD=");
    else if (isVariable(Env[I], ReadsVariable))
      HasFile = strcmp(Env[I] + sizeof ReadsVariable, File) == 0;
    else if (isVariable(Env[I], SkipSelfVariable))
      HasSkip = 1;
  }
  int HasTracer = Preload && strstr(Preload, TracerPath);
  if (HasFile && HasTracer && !HasSkip && hasCarried(Env))
    return (char **)Env;
  if (namesOtherTracer(Preload)) {
    /* What that program and its children read is the other tracer's:
       this test's reads are incomplete from here on. */
    writeLine('i', "handed to another tracer");
    return (char **)Env;
  }
  size_t N = 0;
  for (size_t I = 0; Env[I]; ++I)
    if (!isVariable(Env[I], "LD_PRELOAD") &&
        !isVariable(Env[I], ReadsVariable) &&
        !isVariable(Env[I], SkipSelfVariable) && !hasCarriedValue(Env[I]))
      Copy[N++] = Env[I];
  char *Next = Variables;
  Copy[N++] = Next;
  Next += sprintf(Next, "%s=%s", ReadsVariable, File) + 1;
  for (int I = 0; I < CarriedCount; ++I) {
    const char *Value = carriedValue(I);
    if (!Value)
      continue;
    Copy[N++] = Next;
    Next += sprintf(Next, "%s=%s", CarriedVariables[I], Value) + 1;
  }
  if (HasTracer)
    sprintf(Next, "LD_PRELOAD=%s", Preload);
  else if (Preload && *Preload)
    sprintf(Next, "LD_PRELOAD=%s:%s", TracerPath, Preload);
  else
    sprintf(Next, "LD_PRELOAD=%s", TracerPath);
  Copy[N++] = Next;
  Copy[N] = NULL;
  return Copy;
}

/* Records that a program of \p Path (made absolute) is about to run: a
   line "x PATH". The program itself says so again when it loads this
   library; a statically linked one never does. Recorded in a process
   skipped otherwise too (pytest's own, whose reads are the audit hook's):
   what it starts is its test's. */
static void noteExec(const char *Path) {
  if (Busy || !readsFile() || !Path || !strchr(Path, '/'))
    return;
  Busy = 1;
  char Absolute[PATH_MAX];
  if (absolutePath(AT_FDCWD, Path, Absolute, sizeof Absolute))
    writeLine('x', Absolute);
  Busy = 0;
}

/* Runs \p Call with Traced, \p Env with the tracer, on the stack. */
#define WITH_TRACER(Env, Call)                                                 \
  char *Copy[countOf(Env) + CarriedCount + 3];                                 \
  char Variables[variablesSize(Env)];                                          \
  char **Traced = withTracer(Env, Copy, Variables);                            \
  return Call;

typedef int (*ExecveFn)(const char *, char *const[], char *const[]);
typedef int (*FexecveFn)(int, char *const[], char *const[]);
typedef int (*ExecveatFn)(int, const char *, char *const[], char *const[], int);
typedef int (*SpawnFn)(pid_t *, const char *,
                       const posix_spawn_file_actions_t *,
                       const posix_spawnattr_t *, char *const[], char *const[]);

EXPORT int execve(const char *Path, char *const Argv[], char *const Env[]) {
  NEXT(ExecveFn, "execve");
  noteExec(Path);
  WITH_TRACER(Env, Real(Path, Argv, Traced));
}

EXPORT int execvpe(const char *File, char *const Argv[], char *const Env[]) {
  NEXT(ExecveFn, "execvpe");
  noteExec(File);
  WITH_TRACER(Env, Real(File, Argv, Traced));
}

EXPORT int fexecve(int Fd, char *const Argv[], char *const Env[]) {
  NEXT(FexecveFn, "fexecve");
  WITH_TRACER(Env, Real(Fd, Argv, Traced));
}

EXPORT int execveat(int DirFd, const char *Path, char *const Argv[],
                    char *const Env[], int Flags) {
  NEXT(ExecveatFn, "execveat");
  WITH_TRACER(Env, Real(DirFd, Path, Argv, Traced, Flags));
}

/* libc's own exec functions call its execve inside, unseen: those that
   take the environment from `environ` (which a test may have cleared, as
   `env -i` does) pass it through the ones above. */
EXPORT int execv(const char *Path, char *const Argv[]) {
  return execve(Path, Argv, environ);
}

EXPORT int execvp(const char *File, char *const Argv[]) {
  return execvpe(File, Argv, environ);
}

/* The argument list of execl, execlp and execle as an array (to free),
   and the environment after its null (execle's). */
#define ARGUMENT_ARRAY(Arg, Argv, Env)                                         \
  va_list Args;                                                                \
  size_t Count = 1;                                                            \
  va_start(Args, Arg);                                                         \
  while (va_arg(Args, const char *))                                           \
    ++Count;                                                                   \
  va_end(Args);                                                                \
  char **Argv = malloc((Count + 1) * sizeof(char *));                          \
  if (!Argv)                                                                   \
    return -1;                                                                 \
  va_start(Args, Arg);                                                         \
  Argv[0] = (char *)Arg;                                                       \
  for (size_t I = 1; I <= Count; ++I)                                          \
    Argv[I] = va_arg(Args, char *); /* the last is the null */                 \
  char *const *Env = va_arg(Args, char *const *);                              \
  va_end(Args);

EXPORT int execl(const char *Path, const char *Arg, ...) {
  ARGUMENT_ARRAY(Arg, Argv, Env);
  (void)Env; /* execl has none: past the null */
  int Result = execve(Path, Argv, environ);
  free(Argv);
  return Result;
}

EXPORT int execlp(const char *File, const char *Arg, ...) {
  ARGUMENT_ARRAY(Arg, Argv, Env);
  (void)Env;
  int Result = execvpe(File, Argv, environ);
  free(Argv);
  return Result;
}

EXPORT int execle(const char *Path, const char *Arg, ...) {
  ARGUMENT_ARRAY(Arg, Argv, Env);
  int Result = execve(Path, Argv, Env);
  free(Argv);
  return Result;
}

EXPORT int posix_spawn(pid_t *Pid, const char *Path,
                       const posix_spawn_file_actions_t *Actions,
                       const posix_spawnattr_t *Attributes, char *const Argv[],
                       char *const Env[]) {
  NEXT(SpawnFn, "posix_spawn");
  noteExec(Path);
  WITH_TRACER(Env, Real(Pid, Path, Actions, Attributes, Argv, Traced));
}

EXPORT int posix_spawnp(pid_t *Pid, const char *File,
                        const posix_spawn_file_actions_t *Actions,
                        const posix_spawnattr_t *Attributes, char *const Argv[],
                        char *const Env[]) {
  NEXT(SpawnFn, "posix_spawnp");
  noteExec(File);
  WITH_TRACER(Env, Real(Pid, File, Actions, Attributes, Argv, Traced));
}

/*===----------------------------------------------------------------------===
// Start
//===----------------------------------------------------------------------===*/

/* A fork copies the lock: the child must not inherit it held. */
static void lockForFork(void) { pthread_mutex_lock(&Lock); }
static void unlockAfterFork(void) { pthread_mutex_unlock(&Lock); }
static void childAfterFork(void) {
  Runner = 0;
  pthread_mutex_unlock(&Lock);
}

/* Takes what the environment says when the process starts: whether it is
   skipped, and its reads file. Returns whether its reads are traced. */
static int takeStartState(void) {
  const char *Skip = getenv(SkipSelfVariable);
  SkippedFromStart = Skip && strcmp(Skip, "start") == 0;
  const char *IsRunner = getenv(RunnerVariable);
  Runner = IsRunner && atoi(IsRunner) == (int)getppid();
  if (IsRunner)
    unsetenv(RunnerVariable);
  StartFile[0] = '\0';
  for (int I = 0; I < CarriedCount; ++I) {
    const char *Value = getenv(CarriedVariables[I]);
    StartCarried[I][0] = '\0';
    if (Value && strlen(Value) < sizeof StartCarried[I])
      strcpy(StartCarried[I], Value);
  }
  const char *File = getenv(ReadsVariable);
  if (!File || !*File || strlen(File) >= sizeof StartFile)
    return 0;
  strcpy(StartFile, File);
  return !SkippedFromStart;
}

__attribute__((constructor)) static void start(void) {
  Dl_info Info;
  if (dladdr((void *)&start, &Info) && Info.dli_fname &&
      strlen(Info.dli_fname) < sizeof TracerPath)
    strcpy(TracerPath, Info.dli_fname);
  pthread_atfork(lockForFork, unlockAfterFork, childAfterFork);
  if (!takeStartState())
    return;
  char Pid[32];
  snprintf(Pid, sizeof Pid, "%d", (int)getpid());
  writeLine('p', Pid);
  Announced = 1;
  /* The program this process runs, for the tests that start programs of
     the build (docs/Collection.md, "Across languages and processes"). */
  char Exe[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof Exe - 1);
  if (N > 0) {
    Exe[N] = 0;
    writeLine('x', Exe);
  }
}

/* A process that announced itself says it ended normally ("e PID"): one
   that did not (killed, crashed, _exit) may have run a library of the
   build (dlopen'ed, which this tracer does not see) that then wrote no
   profile. */
__attribute__((destructor)) static void stop(void) {
  if (!Announced)
    return;
  char Pid[32];
  snprintf(Pid, sizeof Pid, "%d", (int)getpid());
  writeLine('e', Pid);
}

/* For a process that gets its environment after it started: a child of
   tia's pytest fork server, forked before its job's environment was set,
   takes its start state from that environment now (it is skipped: its
   reads are the audit hook's). */
EXPORT void tia_reads_restart(void) { takeStartState(); }
