/* Output files replaced atomically (outfile.h). */
#define _GNU_SOURCE /* renameat2 */
#include "util/outfile.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char *copy_text(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

/* The length of path's directory part with its final slash ("a/b" -> 2, "/b" -> 1, "b" -> 0):
 * path[0..n) + name is a sibling's path. */
static size_t dir_prefix(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? (size_t)(slash - path) + 1 : 0;
}

/* "DIR/.BASE.XXXXXX" with XXXXXX from a per-call generator: no shared state, so two
 * threads (or processes) only collide by chance, and O_EXCL turns that into a retry. */
static int create_temp(const char *target, int have_mode, mode_t mode, char **temp_out) {
  size_t dl = dir_prefix(target), n = strlen(target) + 16;
  char *temp = malloc(n);
  if (!temp) return -1;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t x = (uint64_t)(uintptr_t)temp_out ^ ((uint64_t)ts.tv_nsec << 20) ^
               (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40);
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (int attempt = 0; attempt < 100; attempt++) {
    char suffix[7];
    for (int i = 0; i < 6; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
      suffix[i] = alphabet[x % 62];
    }
    suffix[6] = 0;
    snprintf(temp, n, "%.*s.%s.%s", (int)dl, target, target + dl, suffix);
    int fd = open(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, have_mode ? 0600 : 0666);
    if (fd >= 0) {
      if (have_mode) (void)fchmod(fd, mode); /* best effort: the content matters more */
      *temp_out = temp;
      return fd;
    }
    if (errno != EEXIST) break;
  }
  int e = errno;
  free(temp);
  errno = e;
  return -1;
}

/* Removes the temporary files of writers of target that died before their commit: a writer
 * holds a lock on its file while it lives (the system drops it with the process), so a file
 * that can be locked is a dead writer's. Its rows stayed readable until this next write to
 * the same path; without this, every run killed by a timeout left one behind, gigabytes for
 * long results, until the disk filled. */
static void remove_stale_temps(const char *target) {
  size_t dl = dir_prefix(target), bl = strlen(target + dl);
  char dir[PATH_MAX];
  if (dl >= sizeof dir) return;
  snprintf(dir, sizeof dir, "%.*s", (int)dl, dl ? target : ".");
  DIR *d = opendir(dir);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    const char *n = e->d_name;
    if (n[0] != '.' || strncmp(n + 1, target + dl, bl) || n[1 + bl] != '.' ||
        strlen(n + 2 + bl) != 6)
      continue;
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, n) >= sizeof path) continue;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    struct stat sb;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0)
      (void)unlink(path);
    close(fd);
  }
  closedir(d);
}

static int open_in_place(st_outfile *o, const char *path, const char *mode) {
  o->file = fopen(path, mode);
  return o->file ? 0 : -1;
}

int st_outfile_open(st_outfile *o, const char *path, const char *mode) {
  *o = (st_outfile){NULL, NULL, NULL};
  if (!strcmp(path, "-")) {
    int fd = dup(STDOUT_FILENO);
    o->file = fd >= 0 ? fdopen(fd, mode) : NULL;
    if (!o->file && fd >= 0) close(fd);
    return o->file ? 0 : -1;
  }
  struct stat sb;
  int exists = lstat(path, &sb) == 0;
  if (!exists && errno != ENOENT) return -1;
  if (exists && S_ISLNK(sb.st_mode)) {
    if (stat(path, &sb)) /* a dangling link: create the file it names */
      return errno == ENOENT ? open_in_place(o, path, mode) : -1;
    if (!S_ISREG(sb.st_mode)) return open_in_place(o, path, mode);
    o->target = realpath(path, NULL); /* the link is kept: its file is replaced */
  } else if (exists && !S_ISREG(sb.st_mode)) {
    return open_in_place(o, path, mode); /* a device, a pipe, ... */
  } else {
    o->target = copy_text(path);
  }
  if (!o->target) return -1;
  remove_stale_temps(o->target);
  int fd = create_temp(o->target, exists, sb.st_mode & 07777, &o->temp);
  if (fd >= 0) (void)flock(fd, LOCK_EX | LOCK_NB); /* alive: remove_stale_temps leaves it */
  if (fd >= 0 && !(o->file = fdopen(fd, mode))) {
    int e = errno;
    close(fd);
    unlink(o->temp);
    errno = e;
  }
  if (!o->file) {
    int e = errno;
    free(o->temp);
    free(o->target);
    *o = (st_outfile){NULL, NULL, NULL};
    errno = e;
    return -1;
  }
  return 0;
}

static void release(st_outfile *o) {
  free(o->temp);
  free(o->target);
  *o = (st_outfile){NULL, NULL, NULL};
}

/* Puts temp in place of target in one step. Over an existing file, ext4 makes rename() write
 * the new file's delayed blocks out first (its replace-by-rename safeguard): 3 ms for
 * CoupledClutches' 2 MB, a third of the whole run. Exchanging the two names is just as
 * atomic and skips that; the old contents, now under temp's name, are then unlinked. */
static int put_in_place(const char *temp, const char *target) {
#ifdef RENAME_EXCHANGE
  if (renameat2(AT_FDCWD, temp, AT_FDCWD, target, RENAME_EXCHANGE) == 0) {
    (void)unlink(temp);
    return 0;
  }
#endif
  return rename(temp, target);
}

int st_outfile_commit(st_outfile *o) {
  if (!o->file) return 0;
  int rc = fclose(o->file);
  int e = errno;
  if (o->temp) {
    if (rc == 0 && put_in_place(o->temp, o->target)) {
      rc = -1;
      e = errno;
    }
    if (rc) unlink(o->temp);
  }
  release(o);
  errno = e;
  return rc ? -1 : 0;
}

void st_outfile_abort(st_outfile *o) {
  if (!o->file) return;
  fclose(o->file);
  if (o->temp) unlink(o->temp);
  release(o);
}

/* DIR resolved + "/" + BASE, or NULL when DIR cannot be resolved. */
static char *canonical_path(const char *path) {
  size_t dl = dir_prefix(path);
  char dir[PATH_MAX];
  if (dl >= sizeof dir) return NULL;
  snprintf(dir, sizeof dir, "%.*s", (int)dl, dl ? path : "./");
  char *real = realpath(dir, NULL);
  if (!real) return NULL;
  size_t n = strlen(real) + strlen(path + dl) + 2;
  char *c = malloc(n);
  if (c) snprintf(c, n, "%s/%s", real, path + dl);
  free(real);
  return c;
}

int st_same_file(const char *a, const char *b) {
  if (!a || !b || !strcmp(a, "-") || !strcmp(b, "-")) return 0;
  struct stat sa, sb;
  int ha = stat(a, &sa) == 0, hb = stat(b, &sb) == 0;
  if (ha && hb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ha != hb) return 0;
  char *ca = canonical_path(a), *cb = canonical_path(b);
  int same = ca && cb ? !strcmp(ca, cb) : !strcmp(a, b);
  free(ca);
  free(cb);
  return same;
}
