/*
 * clock-offset: an LD_PRELOAD library that shifts a process's wall clock, and optionally its
 * monotonic clock, by offsets that can be stepped while the process runs. Wall-clock reads:
 * clock_gettime(CLOCK_REALTIME / CLOCK_REALTIME_COARSE), gettimeofday, time and timespec_get.
 * Monotonic reads, only when LOCK_ORACLES_MONOTONIC_CLOCK_FILE is set: clock_gettime(CLOCK_MONOTONIC
 * / _RAW / _COARSE / CLOCK_BOOTTIME) — what libuv's uv_hrtime reads, so Node's process.hrtime,
 * performance.now and its timers' loop time all move with it. Every other clock (CPU time) is
 * passed through untouched.
 *
 * Each offset, in milliseconds (a signed decimal integer), is read from its own file: the wall
 * clock's from the file named by LOCK_ORACLES_CLOCK_FILE, the monotonic clocks' from the one named
 * by LOCK_ORACLES_MONOTONIC_CLOCK_FILE. A file is stat()ed on each read of its clock and re-read
 * only when its inode, size or mtime changed, so a writer that replaces it atomically (write a temp
 * file, then rename) steps the clock for the very next read. No file, no variable, or unparsable
 * text: 0.
 *
 * Why not libfaketime: it resolves the real functions with dlsym() lazily, from inside the first
 * clock read; dlsym allocates, and jemalloc (which Debian's redis-server uses) reads the clock while
 * initialising, so the process deadlocks at start. Here the real time comes from the raw
 * clock_gettime syscall, and the pass-through for other clocks is resolved once in a constructor
 * (before that, it falls back to the syscall too), so no clock read ever allocates or locks.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static clock_gettime_fn real_clock_gettime;

/* One offset file: its path and the last file identity seen with the offset parsed from it. */
struct offset_source {
  /* A copy, not getenv's pointer: redis-server overwrites its environment block to set its title. */
  char path_buf[PATH_MAX];
  const char *path;
  uint64_t ino, size, mtime_ns;
  int64_t offset_ms;
};

static struct offset_source wall_source, monotonic_source;

static void open_source(struct offset_source *source, const char *variable) {
  const char *path = getenv(variable);
  if (path != NULL && strlen(path) < sizeof source->path_buf) {
    strcpy(source->path_buf, path);
    source->path = source->path_buf;
  }
}

__attribute__((constructor)) static void clock_offset_init(void) {
  open_source(&wall_source, "LOCK_ORACLES_CLOCK_FILE");
  open_source(&monotonic_source, "LOCK_ORACLES_MONOTONIC_CLOCK_FILE");
  real_clock_gettime = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
}

static int raw_clock_gettime(clockid_t id, struct timespec *ts) {
  return (int)syscall(SYS_clock_gettime, id, ts);
}

static int64_t parse_ms(const char *text, ssize_t len) {
  int64_t value = 0;
  int negative = 0;
  ssize_t i = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\t')) i++;
  if (i < len && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  for (; i < len && text[i] >= '0' && text[i] <= '9'; i++) value = value * 10 + (text[i] - '0');
  return negative ? -value : value;
}

/* The offset of `source` in force now, in ms. Async-signal-safe: stat, open, read, close only. */
static int64_t current_offset_ms(struct offset_source *source) {
  struct stat st;
  if (source->path == NULL || stat(source->path, &st) != 0) return 0;
  uint64_t mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec;
  if (__atomic_load_n(&source->ino, __ATOMIC_ACQUIRE) == (uint64_t)st.st_ino &&
      __atomic_load_n(&source->size, __ATOMIC_ACQUIRE) == (uint64_t)st.st_size &&
      __atomic_load_n(&source->mtime_ns, __ATOMIC_ACQUIRE) == mtime_ns) {
    return __atomic_load_n(&source->offset_ms, __ATOMIC_ACQUIRE);
  }
  int fd = open(source->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[32];
  ssize_t len = read(fd, text, sizeof text);
  close(fd);
  int64_t offset = len > 0 ? parse_ms(text, len) : 0;
  /* Publish the offset before the identity, so a reader that matches the identity sees it. */
  __atomic_store_n(&source->offset_ms, offset, __ATOMIC_RELEASE);
  __atomic_store_n(&source->mtime_ns, mtime_ns, __ATOMIC_RELEASE);
  __atomic_store_n(&source->size, (uint64_t)st.st_size, __ATOMIC_RELEASE);
  __atomic_store_n(&source->ino, (uint64_t)st.st_ino, __ATOMIC_RELEASE);
  return offset;
}

static void shift(struct timespec *ts, int64_t offset_ms) {
  int64_t ns = (int64_t)ts->tv_nsec + (offset_ms % 1000) * 1000000;
  ts->tv_sec += offset_ms / 1000;
  if (ns < 0) {
    ns += 1000000000;
    ts->tv_sec -= 1;
  } else if (ns >= 1000000000) {
    ns -= 1000000000;
    ts->tv_sec += 1;
  }
  ts->tv_nsec = (long)ns;
}

static int shifted_realtime(clockid_t id, struct timespec *ts) {
  int rc = raw_clock_gettime(id, ts);
  if (rc == 0) shift(ts, current_offset_ms(&wall_source));
  return rc;
}

static int is_monotonic(clockid_t id) {
  return id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW || id == CLOCK_MONOTONIC_COARSE || id == CLOCK_BOOTTIME;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
  if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) return shifted_realtime(id, ts);
  int rc = real_clock_gettime ? real_clock_gettime(id, ts) : raw_clock_gettime(id, ts);
  if (rc == 0 && monotonic_source.path != NULL && is_monotonic(id)) shift(ts, current_offset_ms(&monotonic_source));
  return rc;
}

/* glibc declares tv nonnull, but the syscall accepts NULL, and so does this. */
#pragma GCC diagnostic ignored "-Wnonnull-compare"
int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
  (void)tz; /* the timezone argument is obsolete */
  if (tv == NULL) return 0;
  struct timespec ts;
  int rc = shifted_realtime(CLOCK_REALTIME, &ts);
  if (rc == 0) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
  }
  return rc;
}

time_t time(time_t *out) {
  struct timespec ts;
  if (shifted_realtime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
  if (out) *out = ts.tv_sec;
  return ts.tv_sec;
}

int timespec_get(struct timespec *ts, int base) {
  if (base != TIME_UTC || shifted_realtime(CLOCK_REALTIME, ts) != 0) return 0;
  return base;
}
