import CCarrelSys
import Glibc

/// The disk's share of a Trash operation, measured in the same run: the
/// system calls `carrel.delete` makes to stay crash-safe, made directly,
/// with no server. Its median is the floor under delete and restore; the
/// rest is the server's own work. fsync latency on a virtual disk drifts by
/// 2× over an hour, so only a floor from the same run means anything.
///
/// The calls, as in `TrashRecords.write` and the move in
/// `Workspace.moveToTrash`: create a record file (`O_EXCL`, about 120
/// bytes) in the records folder and fsync it and the folder at once; move
/// an item between two folders; fsync both folders at once. The record of
/// the delete before is removed first, as a restore would, so the folder
/// does not grow.
func diskFloor(in dir: String, iterations: Int) -> [Double] {
    mkdir(dir, 0o755)
    for sub in ["a", "b", "c"] { mkdir(dir + "/" + sub, 0o755) }
    let a = open(dir + "/a", O_RDONLY | O_DIRECTORY)
    let b = open(dir + "/b", O_RDONLY | O_DIRECTORY)
    let c = open(dir + "/c", O_RDONLY | O_DIRECTORY)
    defer { close(a); close(b); close(c) }
    close(openat(a, "item.md", O_CREAT | O_WRONLY, 0o644))
    let record = [UInt8](repeating: 0x20, count: 120)
    return measure(iterations) { i in
        let (from, to) = i % 2 == 0 ? (a, b) : (b, a)
        if i > 0 { unlinkat(c, "\(i - 1).json", 0) }
        let fd = openat(c, "\(i).json", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        _ = record.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        fsyncAtOnce([fd, c])
        close(fd)
        _ = carrel_rename_noreplace(from, "item.md", to, "item.md")
        fsyncAtOnce([from, to])
    }
}

/// As `Directory.sync` does: the first here, the others on kept helper threads.
private func fsyncAtOnce(_ fds: [Int32]) {
    _ = fds.withUnsafeBufferPointer { carrel_fsync_all($0.baseAddress, Int32($0.count)) }
}

/// The disk's share of a reorder, as `OrderFile.write` makes it: a
/// temporary file of a 1,000-name order (`O_EXCL`), fsynced; swapped in
/// for the order file (`RENAME_EXCHANGE`); the folder fsynced; the old one
/// unlinked.
func reorderDiskFloor(in dir: String, iterations: Int) -> [Double] {
    mkdir(dir, 0o755)
    let d = open(dir, O_RDONLY | O_DIRECTORY)
    defer { close(d) }
    let order = Array((0..<1000).map { "Wide \($0).md\n" }.joined().utf8)
    close(openat(d, ".carrel-order", O_CREAT | O_WRONLY, 0o644))
    return measure(iterations) { i in
        let tmp = ".carrel-order.tmp-\(i)"
        let fd = openat(d, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        _ = order.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        fsync(fd)
        close(fd)
        _ = carrel_rename_exchange(d, tmp, ".carrel-order")
        _ = carrel_fsync_dir(d)
        unlinkat(d, tmp, 0)
    }
}
