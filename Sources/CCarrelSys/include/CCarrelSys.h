// System calls Glibc's Swift module does not expose without _GNU_SOURCE.
// Kept tiny on purpose: every function is a thin, documented wrapper.
#ifndef CCARRELSYS_H
#define CCARRELSYS_H

#include <stdint.h>

/// renameat2(RENAME_NOREPLACE): atomically renames, failing with EEXIST
/// when the target exists (files and directories alike). Returns 0 or -1
/// with errno set. EXDEV across filesystems: never copy, report instead.
int carrel_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);

/// Plain renameat, which replaces silently, is never used for user files.
/// This probes once, on the root filesystem, whether the kernel understands
/// RENAME_NOREPLACE at all. A filesystem that refuses the flag (some FUSE
/// mounts) makes each rename there fail with EINVAL instead.
int carrel_rename_noreplace_supported(void);

/// Atomically swaps two names in one directory (renameat2 RENAME_EXCHANGE).
/// EINVAL when the filesystem cannot.
int carrel_rename_exchange(int dirfd, const char *a, const char *b);

/// Metadata of one directory entry without following links.
typedef struct {
    int32_t type;          ///< 0 other, 1 regular file, 2 directory, 3 symlink
    int64_t birth_ms;      ///< creation time in ms since the epoch, or -1 if unknown
    int64_t modified_ms;   ///< modification time in ms since the epoch
    int64_t change_ns;     ///< directory mtime in ns, used by the polling watcher
    uint64_t device;
    uint64_t inode;
    uint64_t size;
    int64_t status_change_ns; ///< ctime in ns: moves on every write, even one that puts mtime back
} carrel_stat_t;

/// statx(AT_SYMLINK_NOFOLLOW) relative to dirfd. Returns 0 or -1 with errno.
int carrel_lstat_at(int dirfd, const char *name, carrel_stat_t *out);

/// stat of the target of name (follows links), for link targets' kind only.
int carrel_stat_target_at(int dirfd, const char *name, carrel_stat_t *out);

/// Opens a directory relative to dirfd, refusing to follow a symlink at the
/// last component (O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC).
int carrel_open_dir_nofollow(int dirfd, const char *name);

/// Opens the directory at a relative path of several components below
/// dirfd in one call (openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS):
/// no symlink is followed at any step and nothing outside dirfd is reached.
/// -1 with errno ENOSYS where the kernel or a sandbox lacks openat2; the
/// caller then opens one component at a time.
int carrel_open_dir_beneath(int dirfd, const char *path);

/// Creates an empty file, failing with EEXIST when anything is already there.
int carrel_create_file_excl(int dirfd, const char *name);

/// Directory reading with d_type, so walks need no stat for kinds.
typedef struct carrel_dir carrel_dir;
carrel_dir *carrel_dir_open_fd(int dirfd);   ///< takes ownership of dirfd
/// Next entry, skipping "." and "..". Returns 1 and fills name/type, 0 at the
/// end, -1 on error. type: 0 unknown/other, 1 file, 2 directory, 3 symlink.
int carrel_dir_next(carrel_dir *dir, const char **name, int *type);
int carrel_dir_fd(carrel_dir *dir);
void carrel_dir_close(carrel_dir *dir);

/// fsync of a directory, so renames inside it are durable.
int carrel_fsync_dir(int dirfd);

/// fsyncs every descriptor given at once and returns when all are done:
/// the first on the calling thread, each other on a helper thread kept for
/// the purpose and woken directly. Each fsync mostly waits for the disk, so
/// the waits overlap. 0, or -1 when any fsync failed.
int carrel_fsync_all(const int *fds, int count);

/// Marks the calling thread as batch work: its wake-ups do not preempt
/// other threads. Returns 0 or -1.
int carrel_sched_batch_this_thread(void);

/* mallopt(M_ARENA_MAX, n): caps glibc's per-thread malloc arenas. */
int carrel_limit_malloc_arenas(int n);
/* mallopt(M_MMAP_THRESHOLD, bytes): blocks this large always come from mmap. */
int carrel_fix_mmap_threshold(int bytes);

/// Advisory whole-file lock (flock LOCK_EX), blocking. Returns 0 or -1.
int carrel_flock_exclusive(int fd);

#endif
