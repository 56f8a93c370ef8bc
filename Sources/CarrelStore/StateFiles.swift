import CarrelJSON
import CarrelModel
import Glibc

/// Server state that belongs to no project: the settings of plain libraries
/// (sort, "don't ask again"), kept in the user's state folder, never in the library.
public struct LibrarySettings: Sendable, Equatable {
    public var sort = SortSetting.byName
    public var confirmDelete = true
    public var linkUpdates = LinkUpdates.ask
    public init() {}
}

public enum StateFiles {
    /// `$XDG_STATE_HOME/carrel` (`~/.local/state/carrel`), or
    /// `~/Library/Application Support/Carrel` on macOS.
    public static func directory() -> [UInt8]? {
        #if os(macOS)
            guard let home = Environment.get("HOME") else { return nil }
            return Array((home + "/Library/Application Support/Carrel").utf8)
        #else
            if let s = Environment.get("XDG_STATE_HOME"), s.hasPrefix("/") { return Array((s + "/carrel").utf8) }
            guard let home = Environment.get("HOME"), home.hasPrefix("/") else { return nil }
            return Array((home + "/.local/state/carrel").utf8)
        #endif
    }

    /// Makes `path` and its missing parents, private to the user. False
    /// when it is still not a folder.
    static func makeFolders(_ path: [UInt8]) -> Bool {
        var made: [UInt8] = []
        for part in path.split(separator: UInt8(ascii: "/")) {
            made.append(UInt8(ascii: "/"))
            made.append(contentsOf: part)
            _ = BytePath.withCString(made) { mkdir($0, 0o700) }
        }
        return Scanner.stat(path)?.isDirectory == true
    }

    public static func settings(for library: [UInt8]) -> LibrarySettings {
        var s = LibrarySettings()
        guard let entry = readJSON("libraries.json")?[BytePath.display(library)] else { return s }
        if let by = entry["sort"]?["by"]?.stringValue, let key = SortKey(rawValue: by) { s.sort.by = key }
        if let d = entry["sort"]?["descending"]?.boolValue { s.sort.descending = d }
        if let c = entry["confirmDelete"]?.boolValue { s.confirmDelete = c }
        if let m = entry["linkUpdates"]?.stringValue.flatMap(LinkUpdates.init(rawValue:)) { s.linkUpdates = m }
        return s
    }

    /// Best effort: losing a plain library's sort order is not losing writing.
    public static func save(_ settings: LibrarySettings, for library: [UInt8]) {
        var all: [String: JSONValue] = [:]
        if case .object(let o)? = readJSON("libraries.json") { all = o }
        all[BytePath.display(library)] = [
            "sort": ["by": .string(settings.sort.by.rawValue), "descending": .bool(settings.sort.descending)],
            "confirmDelete": .bool(settings.confirmDelete),
            "linkUpdates": .string(settings.linkUpdates.rawValue),
        ]
        writeJSON(.object(all), to: "libraries.json")
    }

    /// A small JSON file of the state folder, or nil when it is missing or not JSON.
    public static func readJSON(_ name: String) -> JSONValue? {
        guard let dir = directory(), let d = try? Directory.open(dir),
            let bytes = try? d.readPlainFile(Array(name.utf8), limit: 4 << 20)
        else { return nil }
        return try? JSONParser.parse(bytes)
    }

    /// Replaces the state folder's `name` whole: a temporary file, synced,
    /// renamed over it. Best effort.
    public static func writeJSON(_ value: JSONValue, to name: String) {
        guard let dir = directory(), makeFolders(dir), let d = try? Directory.open(dir) else { return }
        var bytes = value.encoded(pretty: true)
        bytes.append(0x0A)
        let tmp = Array(".\(name).tmp-\(getpid())".utf8)
        let fd = BytePath.withCString(tmp) {
            openat(d.fd, $0, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { return }
        let written = FileDescriptor.writeAll(fd, bytes) == 0 && fsync(fd) == 0
        close(fd)
        // A short copy must not replace what every other library or project keeps there.
        guard written else {
            _ = BytePath.withCString(tmp) { unlinkat(d.fd, $0, 0) }
            return
        }
        _ = BytePath.withCString(tmp) { src in
            BytePath.withCString(Array(name.utf8)) { renameat(d.fd, src, d.fd, $0) }
        }
        d.sync()
    }
}
