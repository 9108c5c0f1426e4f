/*
 * clock-offset: an LD_PRELOAD library that shifts a process's wall clock by an offset that can be
 * stepped while the process runs. Only wall-clock reads move: clock_gettime(CLOCK_REALTIME /
 * CLOCK_REALTIME_COARSE), gettimeofday, time and timespec_get. Every other clock (MONOTONIC,
 * BOOTTIME, CPU time) is passed through untouched.
 *
 * The offset, in milliseconds (a signed decimal integer), is read from the file named by
 * LOCK_ORACLES_CLOCK_FILE. The file is stat()ed on each wall-clock read and re-read only when its
 * inode, size or mtime changed, so a writer that replaces it atomically (write a temp file, then
 * rename) steps the clock for the very next read. No file, no variable, or unparsable text: 0.
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
/* A copy, not getenv's pointer: redis-server overwrites its environment block to set its title. */
static char offset_file_buf[PATH_MAX];
static const char *offset_file;

/* The last file identity seen and the offset parsed from it. */
static struct {
  uint64_t ino, size, mtime_ns;
  int64_t offset_ms;
} cached;

__attribute__((constructor)) static void clock_offset_init(void) {
  const char *path = getenv("LOCK_ORACLES_CLOCK_FILE");
  if (path != NULL && strlen(path) < sizeof offset_file_buf) {
    strcpy(offset_file_buf, path);
    offset_file = offset_file_buf;
  }
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

/* The offset in force now, in ms. Async-signal-safe: stat, open, read, close only. */
static int64_t current_offset_ms(void) {
  struct stat st;
  if (offset_file == NULL || stat(offset_file, &st) != 0) return 0;
  uint64_t mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec;
  if (__atomic_load_n(&cached.ino, __ATOMIC_ACQUIRE) == (uint64_t)st.st_ino &&
      __atomic_load_n(&cached.size, __ATOMIC_ACQUIRE) == (uint64_t)st.st_size &&
      __atomic_load_n(&cached.mtime_ns, __ATOMIC_ACQUIRE) == mtime_ns) {
    return __atomic_load_n(&cached.offset_ms, __ATOMIC_ACQUIRE);
  }
  int fd = open(offset_file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[32];
  ssize_t len = read(fd, text, sizeof text);
  close(fd);
  int64_t offset = len > 0 ? parse_ms(text, len) : 0;
  /* Publish the offset before the identity, so a reader that matches the identity sees it. */
  __atomic_store_n(&cached.offset_ms, offset, __ATOMIC_RELEASE);
  __atomic_store_n(&cached.mtime_ns, mtime_ns, __ATOMIC_RELEASE);
  __atomic_store_n(&cached.size, (uint64_t)st.st_size, __ATOMIC_RELEASE);
  __atomic_store_n(&cached.ino, (uint64_t)st.st_ino, __ATOMIC_RELEASE);
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
  if (rc == 0) shift(ts, current_offset_ms());
  return rc;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
  if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) return shifted_realtime(id, ts);
  return real_clock_gettime ? real_clock_gettime(id, ts) : raw_clock_gettime(id, ts);
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
