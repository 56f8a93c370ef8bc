#define _GNU_SOURCE
#include "CCarrelSys.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int carrel_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
    return renameat2(olddirfd, oldpath, newdirfd, newpath, RENAME_NOREPLACE);
}

int carrel_rename_exchange(int dirfd, const char *a, const char *b) {
    return renameat2(dirfd, a, dirfd, b, RENAME_EXCHANGE);
}

int carrel_rename_noreplace_supported(void) {
    // A rename of a name that does not exist: ENOENT means the flag was
    // understood, EINVAL means the kernel or filesystem refuses it.
    int r = renameat2(AT_FDCWD, "/nonexistent-carrel-probe", AT_FDCWD, "/nonexistent-carrel-probe-2", RENAME_NOREPLACE);
    return (r == 0 || errno != EINVAL) ? 1 : 0;
}

static int64_t ms_of(struct statx_timestamp ts) {
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void fill(const struct statx *sx, carrel_stat_t *out) {
    mode_t m = sx->stx_mode & S_IFMT;
    out->type = m == S_IFREG ? 1 : m == S_IFDIR ? 2 : m == S_IFLNK ? 3 : 0;
    out->birth_ms = (sx->stx_mask & STATX_BTIME) ? ms_of(sx->stx_btime) : -1;
    out->modified_ms = ms_of(sx->stx_mtime);
    out->change_ns = (int64_t)sx->stx_mtime.tv_sec * 1000000000 + sx->stx_mtime.tv_nsec;
    out->device = ((uint64_t)sx->stx_dev_major << 32) | sx->stx_dev_minor;
    out->inode = sx->stx_ino;
    out->size = sx->stx_size;
    out->status_change_ns = (int64_t)sx->stx_ctime.tv_sec * 1000000000 + sx->stx_ctime.tv_nsec;
}

static int do_statx(int dirfd, const char *name, int flags, carrel_stat_t *out) {
    struct statx sx;
    int r = statx(dirfd, name, flags | AT_STATX_SYNC_AS_STAT,
                  STATX_TYPE | STATX_MODE | STATX_MTIME | STATX_CTIME | STATX_BTIME | STATX_INO | STATX_SIZE, &sx);
    if (r != 0) return -1;
    fill(&sx, out);
    return 0;
}

int carrel_lstat_at(int dirfd, const char *name, carrel_stat_t *out) {
    return do_statx(dirfd, name, AT_SYMLINK_NOFOLLOW, out);
}

int carrel_stat_target_at(int dirfd, const char *name, carrel_stat_t *out) {
    return do_statx(dirfd, name, 0, out);
}

int carrel_open_dir_nofollow(int dirfd, const char *name) {
    return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* struct open_how and its flags, as in <linux/openat2.h>, which older
   kernel headers lack. */
struct carrel_open_how { unsigned long long flags, mode, resolve; };
#define CARREL_RESOLVE_NO_MAGICLINKS 0x02
#define CARREL_RESOLVE_NO_SYMLINKS 0x04
#define CARREL_RESOLVE_BENEATH 0x08

static int openat2_missing = 0;

int carrel_open_dir_beneath(int dirfd, const char *path) {
    if (__atomic_load_n(&openat2_missing, __ATOMIC_RELAXED)) { errno = ENOSYS; return -1; }
    struct carrel_open_how how = {
        .flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
        .mode = 0,
        .resolve = CARREL_RESOLVE_BENEATH | CARREL_RESOLVE_NO_SYMLINKS | CARREL_RESOLVE_NO_MAGICLINKS,
    };
    /* EAGAIN: a rename raced the lookup; the caller's fallback copes if it persists. */
    int fd = -1;
    for (int tries = 0; tries < 3; tries++) {
        fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
        if (fd >= 0 || errno != EAGAIN) break;
    }
    if (fd < 0 && (errno == ENOSYS || errno == EPERM)) {
        /* A seccomp filter may answer EPERM for a call it does not know. */
        __atomic_store_n(&openat2_missing, 1, __ATOMIC_RELAXED);
        errno = ENOSYS;
    }
    return fd;
}

int carrel_create_file_excl(int dirfd, const char *name) {
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    int r = fsync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return r;
}

struct carrel_dir { DIR *d; };

carrel_dir *carrel_dir_open_fd(int dirfd) {
    DIR *d = fdopendir(dirfd);
    if (!d) { int e = errno; close(dirfd); errno = e; return NULL; }
    carrel_dir *cd = malloc(sizeof *cd);
    if (!cd) { closedir(d); errno = ENOMEM; return NULL; }
    cd->d = d;
    return cd;
}

int carrel_dir_next(carrel_dir *dir, const char **name, int *type) {
    for (;;) {
        errno = 0;
        struct dirent *e = readdir(dir->d);
        if (!e) return errno ? -1 : 0;
        const char *n = e->d_name;
        if (n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0))) continue;
        *name = n;
        switch (e->d_type) {
            case DT_REG: *type = 1; break;
            case DT_DIR: *type = 2; break;
            case DT_LNK: *type = 3; break;
            default: *type = 0; break;
        }
        return 1;
    }
}

int carrel_dir_fd(carrel_dir *dir) { return dirfd(dir->d); }

void carrel_dir_close(carrel_dir *dir) {
    if (!dir) return;
    closedir(dir->d);
    free(dir);
}

int carrel_fsync_dir(int dirfd) { return fsync(dirfd); }

/* Helpers for carrel_fsync_all. Each has a semaphore of its own, so waking
   two helpers costs two posts and both start at once. (A Dispatch queue woke
   one worker, which woke the next: the second fsync started 60 µs late.)
   Only the last helper to finish posts fsync_done, so the caller wakes once,
   not once per helper. */
enum { FSYNC_HELPERS_MAX = 7 };

struct fsync_helper {
    sem_t go;
    int fd;
    int result;
};

static struct fsync_helper fsync_helpers[FSYNC_HELPERS_MAX];
static int fsync_helpers_started = 0;
static sem_t fsync_done;
static atomic_int fsync_pending;
static pthread_mutex_t fsync_lock = PTHREAD_MUTEX_INITIALIZER;

static void *fsync_helper_run(void *arg) {
    struct fsync_helper *h = arg;
    for (;;) {
        while (sem_wait(&h->go) != 0) {}
        h->result = fsync(h->fd);
        if (atomic_fetch_sub_explicit(&fsync_pending, 1, memory_order_acq_rel) == 1) sem_post(&fsync_done);
    }
    return NULL;
}

/* Called with fsync_lock held. Returns how many helpers are running. */
static int fsync_helpers_ensure(int wanted) {
    static int done_ready = 0;
    if (wanted <= 0) return fsync_helpers_started;
    if (!done_ready) {
        if (sem_init(&fsync_done, 0, 0) != 0) return 0;
        done_ready = 1;
    }
    while (fsync_helpers_started < wanted) {
        struct fsync_helper *h = &fsync_helpers[fsync_helpers_started];
        if (sem_init(&h->go, 0, 0) != 0) break;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 256 * 1024);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_t thread;
        int r = pthread_create(&thread, &attr, fsync_helper_run, h);
        pthread_attr_destroy(&attr);
        if (r != 0) { sem_destroy(&h->go); break; }
        fsync_helpers_started++;
    }
    return fsync_helpers_started;
}

int carrel_fsync_all(const int *fds, int count) {
    if (count <= 0) return 0;
    pthread_mutex_lock(&fsync_lock);
    int wanted = count - 1 < FSYNC_HELPERS_MAX ? count - 1 : FSYNC_HELPERS_MAX;
    int helpers = fsync_helpers_ensure(wanted);
    if (helpers > wanted) helpers = wanted;
    atomic_store_explicit(&fsync_pending, helpers, memory_order_relaxed);
    for (int i = 0; i < helpers; i++) {
        fsync_helpers[i].fd = fds[1 + i];
        sem_post(&fsync_helpers[i].go);
    }
    int failed = fsync(fds[0]) != 0;
    /* What no helper took (none could be started, or more than the most) runs here. */
    for (int i = 1 + helpers; i < count; i++) failed |= fsync(fds[i]) != 0;
    if (helpers > 0) {
        while (sem_wait(&fsync_done) != 0) {}
    }
    for (int i = 0; i < helpers; i++) failed |= fsync_helpers[i].result != 0;
    pthread_mutex_unlock(&fsync_lock);
    return failed ? -1 : 0;
}

int carrel_limit_malloc_arenas(int n) { return mallopt(M_ARENA_MAX, n); }
int carrel_fix_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int carrel_flock_exclusive(int fd) {
    int r;
    do { r = flock(fd, LOCK_EX); } while (r != 0 && errno == EINTR);
    return r;
}

#include <sched.h>

int carrel_sched_batch_this_thread(void) {
    struct sched_param param = { 0 };
    return sched_setscheduler(0, SCHED_BATCH, &param);
}
