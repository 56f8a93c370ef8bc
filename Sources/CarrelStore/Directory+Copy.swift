import CarrelModel
import Glibc

/// Copying a file or a folder tree, for commands that make a second one of
/// what the writer has (duplicate; later compile outputs, snapshots,
/// submission copies). The copy is built under a hidden staging name in
/// the destination folder, made durable, then renamed into place without
/// replacing anything: a crash leaves the original once and, at most, a
/// hidden half-made copy that the next open removes
/// (`removeCopyLeftovers`), never a half-made one in view.
extension Directory {
    /// How much one copy may take, checked before anything is written.
    public struct CopyLimits: Sendable {
        public var bytes: Int
        public var items: Int
        public init(bytes: Int = 2 << 30, items: Int = 50_000) {
            self.bytes = bytes
            self.items = items
        }
    }

    /// What a copy made.
    public struct CopyReport: Sendable, Equatable {
        /// Files, folders and links copied, the top one included.
        public var items: Int
        public var bytes: Int
        /// Paths, relative to the copied item, of named pipes, sockets and
        /// devices: they hold no writing, and opening one could block.
        public var leftOut: [[UInt8]]

        public init(items: Int = 0, bytes: Int = 0, leftOut: [[UInt8]] = []) {
            self.items = items
            self.bytes = bytes
            self.leftOut = leftOut
        }
    }

    public static let copyStagingPrefix = Array(".carrel-copy-".utf8)

    /// Whether a name is a copy's staging name (a crash's leftover, or a
    /// copy under way in some process).
    public static func isCopyStaging(_ raw: UnsafeRawBufferPointer) -> Bool { raw.starts(with: copyStagingPrefix) }

    /// Copies `name` (here) into `target` as `newName`: a file, a link (as
    /// a link) or a folder with everything below it. Never follows a link,
    /// never replaces (EEXIST when `newName` is taken), never opens a pipe
    /// or a device. Larger than `limits`: refused before anything is written.
    @discardableResult
    public func copy(
        _ name: [UInt8], to target: Directory, as newName: [UInt8], limits: CopyLimits = CopyLimits()
    ) throws(SysError) -> CopyReport {
        try checkCopy(name, limits: limits)
        let staging =
            Self.copyStagingPrefix + Array("\(getpid())-\(Clock.nowMs())-\(UInt32.random(in: 0...UInt32.max))".utf8)
        var report = CopyReport()
        do {
            try copyTree(name, to: target, as: staging, limits: limits, report: &report)
            try target.move(staging, to: target, as: newName)
        } catch {
            try? target.removeTree(staging)
            throw error
        }
        target.sync()
        return report
    }

    /// Refuses, before anything is written, what `copy` would refuse: a
    /// pipe, a socket or a device, or a tree past the limits.
    public func checkCopy(_ name: [UInt8], limits: CopyLimits) throws(SysError) {
        let display = BytePath.display(BytePath.join(path, name))
        guard let top = kind(of: name) else { throw SysError("copy", display, code: ENOENT) }
        guard top == .file || top == .folder || top == .link else {
            throw SysError("copy", display, refusal: .wrongKind(found: top, expected: .file))
        }
        let measured = try measure(name, limits: limits)
        if measured.items > limits.items {
            throw SysError("copy", display, refusal: .tooManyToCopy(limit: limits.items))
        }
        if measured.bytes > limits.bytes {
            throw SysError("copy", display, refusal: .tooLargeToCopy(limit: limits.bytes))
        }
    }

    /// Counts what a copy of `name` would make, without following links,
    /// and stops as soon as it is past the limits.
    private func measure(_ name: [UInt8], limits: CopyLimits) throws(SysError) -> (items: Int, bytes: Int) {
        guard let st = stat(name) else { throw SysError("stat", BytePath.display(BytePath.join(path, name))) }
        guard st.isDirectory else { return (1, st.isFile ? Int(clamping: st.size) : 0) }
        var items = 1
        var bytes = 0
        var pending: [[[UInt8]]] = [[name]]
        while let rel = pending.popLast() {
            let dir = try subdirectory(rel)
            for (child, _) in try dir.list() {
                guard !child.withUnsafeBytes({ Self.isCopyStaging($0) }), let cst = dir.stat(child) else { continue }
                items += 1
                if cst.isDirectory { pending.append(rel + [child]) }
                if cst.isFile { bytes += min(Int(clamping: cst.size), limits.bytes + 1) }
                if items > limits.items || bytes > limits.bytes { return (items, bytes) }
            }
        }
        return (items, bytes)
    }

    /// Builds the copy under `staging` in `target`, one folder at a time,
    /// with at most two folders open however deep the tree. Each file and
    /// each folder is fsynced before the rename that shows it.
    private func copyTree(
        _ name: [UInt8], to target: Directory, as staging: [UInt8], limits: CopyLimits, report: inout CopyReport
    ) throws(SysError) {
        guard let kind = kind(of: name) else {
            throw SysError("copy", BytePath.display(BytePath.join(path, name)), code: ENOENT)
        }
        if kind != .folder {
            try copyLeaf(name, kind, from: self, into: target, as: staging, limits: limits, report: &report, rel: [])
            return
        }
        try target.makeDirectory(staging)
        report.items += 1
        var pending: [[[UInt8]]] = [[]]
        while let rel = pending.popLast() {
            let from = try subdirectory([name] + rel)
            let into = try target.subdirectory([staging] + rel)
            // A staging name is never the writer's: a copy into the copied
            // folder would otherwise copy itself.
            for (child, _) in try from.list() where !child.withUnsafeBytes({ Self.isCopyStaging($0) }) {
                guard let childKind = from.kind(of: child) else { continue }  // gone meanwhile
                if childKind == .folder {
                    try into.makeDirectory(child)
                    report.items += 1
                    pending.append(rel + [child])
                } else {
                    try copyLeaf(
                        child, childKind, from: from, into: into, as: child, limits: limits, report: &report,
                        rel: rel + [child])
                }
            }
            into.sync()
        }
    }

    /// A file's bytes, a link as a link; anything else is left out and named.
    private func copyLeaf(
        _ name: [UInt8], _ kind: FoundKind, from: Directory, into: Directory, as newName: [UInt8],
        limits: CopyLimits, report: inout CopyReport, rel: [[UInt8]]
    ) throws(SysError) {
        switch kind {
        case .file:
            report.bytes += try from.copyFile(name, into: into, as: newName, limit: limits.bytes - report.bytes)
            report.items += 1
        case .link:
            try from.copyLink(name, into: into, as: newName)
            report.items += 1
        default:
            report.leftOut.append(Array(rel.joined(separator: [UInt8(ascii: "/")])))
        }
    }

    /// Copies a plain file's bytes into a new file (`O_EXCL`) with the same
    /// permissions, and fsyncs it. A file grown past `limit` while copied is refused.
    private func copyFile(_ name: [UInt8], into: Directory, as newName: [UInt8], limit: Int) throws(SysError) -> Int {
        let source = try openPlainFile(name, O_RDONLY)
        defer { close(source) }
        var st = Glibc.stat()
        let mode = fstat(source, &st) == 0 ? st.st_mode & 0o777 : 0o644
        let destDisplay = BytePath.display(BytePath.join(into.path, newName))
        let dest = BytePath.withCString(newName) {
            openat(into.fd, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        }
        guard dest >= 0 else { throw SysError("create", destDisplay) }
        defer { close(dest) }
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SysError("read", BytePath.display(BytePath.join(path, name)))
            }
            if n == 0 { break }
            total += n
            if total > limit {
                throw SysError(
                    "copy", BytePath.display(BytePath.join(path, name)), refusal: .tooLargeToCopy(limit: limit))
            }
            let failed = FileDescriptor.writeAll(dest, Array(chunk[0..<n]))
            if failed != 0 { throw SysError("write", destDisplay, code: failed) }
        }
        guard fsync(dest) == 0 else { throw SysError("fsync", destDisplay) }
        return total
    }

    /// Makes a link with the same target text; the target is never read.
    private func copyLink(_ name: [UInt8], into: Directory, as newName: [UInt8]) throws(SysError) {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = BytePath.withCString(name) { readlinkat(fd, $0, &buffer, buffer.count - 1) }
        guard n >= 0 else { throw SysError("readlink", BytePath.display(BytePath.join(path, name))) }
        buffer[n] = 0
        let r = BytePath.withCString(newName) { symlinkat(buffer, into.fd, $0) }
        guard r == 0 else { throw SysError("symlink", BytePath.display(BytePath.join(into.path, newName))) }
    }

    /// Removes the staging folders among `names` that a copy cut short
    /// left here: those of a process that no longer runs (or of this one,
    /// which copies one thing at a time and cleans up after itself). A
    /// staging name of a live process is another Carrel's copy under way,
    /// and is left alone. Returns how many were removed.
    @discardableResult
    public func removeCopyLeftovers(_ names: [[UInt8]]) -> Int {
        var removed = 0
        for name in names where name.withUnsafeBytes({ Self.isCopyStaging($0) }) {
            let digits = name.dropFirst(Self.copyStagingPrefix.count).prefix { $0 >= 48 && $0 <= 57 }
            if let pid = Int32(String(decoding: digits, as: UTF8.self)), pid != getpid(), pid > 0,
                kill(pid, 0) == 0 || errno == EPERM
            {
                continue
            }
            if (try? removeTree(name)) != nil { removed += 1 }
        }
        return removed
    }

    /// The staging names here, for `removeCopyLeftovers`.
    public func copyLeftovers() -> [[UInt8]] {
        ((try? list()) ?? []).map(\.name).filter { $0.withUnsafeBytes { Self.isCopyStaging($0) } }
    }
}
