import CCarrelSys
import Glibc

/// The disk's share of a Trash operation, measured in the same run: the
/// system calls `carrel.delete` makes to stay crash-safe, made directly,
/// with no server. Its median is the floor under delete and restore; the
/// rest is the server's own work. fsync latency on a virtual disk drifts by
/// 2× over an hour, so only a floor from the same run means anything.
///
/// The calls, as in `ProjectFile.Lock.stage` and `commit` around the move
/// in `Workspace.moveToTrash`: stat project.json and the spare; read the
/// spare and rewrite it in place from its first changed byte (here the
/// middle of its records), one Trash record (70 bytes) longer than
/// project.json, as the deletes before it grew Trash (then shorter, as
/// restores shrink it), and fsync it; swap it with project.json; move an item between two
/// folders; fsync the three folders at once. The size changes on every
/// write, as the server's does: a rewrite of the same size cost the fsync
/// about a third less, because the file's inode need not be written.
func diskFloor(in dir: String, iterations: Int) -> [Double] {
    mkdir(dir, 0o755)
    for sub in ["a", "b", "c"] { mkdir(dir + "/" + sub, 0o755) }
    let a = open(dir + "/a", O_RDONLY | O_DIRECTORY)
    let b = open(dir + "/b", O_RDONLY | O_DIRECTORY)
    let c = open(dir + "/c", O_RDONLY | O_DIRECTORY)
    defer { close(a); close(b); close(c) }
    close(openat(a, "item.md", O_CREAT | O_WRONLY, 0o644))
    close(openat(c, "project.json", O_CREAT | O_WRONLY, 0o644))
    let record = 70
    let base = 1_000
    let content = [UInt8](repeating: 0x20, count: base + record * (iterations + 1))
    var old = content
    var st = carrel_stat_t()
    return measure(iterations) { i in
        let (from, to) = i % 2 == 0 ? (a, b) : (b, a)
        let records = i < iterations / 2 ? i + 1 : iterations - i - 1
        let size = base + record * records
        _ = carrel_lstat_at(c, "project.json", &st)
        _ = carrel_lstat_at(c, "spare", &st)
        let fd = openat(c, "spare", O_RDWR | O_CREAT, 0o644)
        var fdStat = stat()
        _ = fstat(fd, &fdStat)
        _ = old.withUnsafeMutableBytes { pread(fd, $0.baseAddress, min(Int(fdStat.st_size), size), 0) }
        let changed = min(base + record * records / 2, size - 1)
        _ = content.withUnsafeBytes { pwrite(fd, $0.baseAddress! + changed, size - changed, off_t(changed)) }
        _ = ftruncate(fd, off_t(size))
        fsync(fd)
        close(fd)
        _ = carrel_rename_exchange(c, "spare", "project.json")
        _ = carrel_rename_noreplace(from, "item.md", to, "item.md")
        fsyncAtOnce([c, from, to])
    }
}

/// As `Directory.sync` does: the first here, the others on kept helper threads.
private func fsyncAtOnce(_ fds: [Int32]) {
    _ = fds.withUnsafeBufferPointer { carrel_fsync_all($0.baseAddress, Int32($0.count)) }
}
