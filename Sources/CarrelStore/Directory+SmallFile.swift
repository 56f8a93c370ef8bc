import CCarrelSys
import CarrelJSON
import CarrelModel
import Glibc

/// Carrel's own small JSON files that change (a market's details, a
/// submission's record): written whole to a hidden temporary, made
/// durable, then swapped in for the old file in one atomic step, so a
/// reader sees the old file or the new one, whole, and a crash leaves at
/// most a hidden temporary beside it.
extension Directory {
    /// Reads `name` as an untrusted JSON object: a plain file (never a
    /// link, a pipe or a folder), at most `limit` bytes. With git's
    /// conflict markers, both sides are returned.
    public func readSmallJSON(_ name: [UInt8], limit: Int) throws(SmallFileProblem) -> [[String: JSONValue]] {
        let bytes: [UInt8]
        do { bytes = try readPlainFile(name, limit: limit) } catch {
            switch error.refusal {
            case .wrongKind(let found, _)?: throw .notAFile(found)
            case .tooLarge?: throw .tooLarge(limit)
            default: throw .unreadable(error.description)
            }
        }
        let versions = ProjectMerge.sides(ofConflict: bytes).map { [$0.ours, $0.theirs] } ?? [bytes]
        var out: [[String: JSONValue]] = []
        for version in versions {
            guard case .object(let o)? = try? JSONParser.parse(version) else { throw .notJSON }
            out.append(o)
        }
        return out
    }

    /// Writes `json` as `name` here: a hidden temporary (`tempPrefix`
    /// and a unique tail, created `O_EXCL`), fsynced, then exchanged with
    /// the file (renamed no-replace when there is none) and the folder
    /// fsynced; the old file, now under the temporary's name, goes last.
    /// What is there and is not a plain file is refused, never replaced, and
    /// one swapped in meanwhile is swapped back.
    public func writeSmallJSON(_ json: [String: JSONValue], as name: [UInt8], tempPrefix: [UInt8]) throws(SysError) {
        let display = BytePath.display(BytePath.join(path, name))
        if let found = kind(of: name), found != .file {
            throw SysError("open", display, refusal: .wrongKind(found: found, expected: .file))
        }
        var bytes = JSONValue.object(json).encoded(pretty: true)
        bytes.append(0x0A)
        let tmp = tempPrefix + Array("\(getpid())-\(Clock.nowMs())-\(UInt32.random(in: 0...UInt32.max))".utf8)
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = BytePath.withCString(tmp) { openat(self.fd, $0, flags, 0o644) }
        guard fd >= 0 else { throw SysError("create", BytePath.display(BytePath.join(path, tmp))) }
        var code = FileDescriptor.writeAll(fd, bytes)
        if code == 0 && fsync(fd) != 0 { code = errno }
        close(fd)
        func dropTemp() { _ = BytePath.withCString(tmp) { unlinkat(self.fd, $0, 0) } }
        guard code == 0 else {
            dropTemp()
            throw SysError("write", display, code: code)
        }
        let placed = BytePath.withCString(tmp) { t in
            BytePath.withCString(name) { n in carrel_rename_noreplace(self.fd, t, self.fd, n) }
        }
        if placed == 0 {
            sync()
            return
        }
        guard errno == EEXIST else {
            let e = SysError("rename", display)
            dropTemp()
            throw e
        }
        let swapped = BytePath.withCString(tmp) { t in
            BytePath.withCString(name) { n in carrel_rename_exchange(self.fd, t, n) }
        }
        guard swapped == 0 else {
            let e = SysError("rename", display)
            dropTemp()
            throw e
        }
        if let found = kind(of: tmp), found != .file {
            // Something that is no file of Carrel's came in since the check: it goes back.
            _ = BytePath.withCString(tmp) { t in
                BytePath.withCString(name) { n in carrel_rename_exchange(self.fd, t, n) }
            }
            dropTemp()
            throw SysError("open", display, refusal: .wrongKind(found: found, expected: .file))
        }
        sync()
        if kind(of: tmp) == .file { dropTemp() }
    }

    /// Removes hidden temporaries starting with `prefix` that a crash left.
    /// The caller holds whatever lock its writers take.
    public func removeTemporaries(_ prefix: [UInt8]) {
        guard let items = try? list() else { return }
        for item in items where item.name.starts(with: prefix) && kind(of: item.name) == .file {
            try? unlinkFile(item.name)
        }
    }
}

/// Why one of Carrel's small files could not be read.
public enum SmallFileProblem: Error, Sendable, Equatable {
    case notAFile(FoundKind)
    case tooLarge(Int)
    case notJSON
    case unreadable(String)
}
