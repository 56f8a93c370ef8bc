import CarrelClient
import CarrelJSON
import CarrelProtocol
import CarrelRandom
import Foundation
import Glibc

/// What must hold after every kill.
extension Torture {
    /// Where each content is, hidden places included: the library and the system trash.
    func locateContents(phase: String, afterRestart: Bool = false) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for (base, label) in [(lib, "lib"), (dataHome + "/Trash/files", "system-trash")] {
            for n in Disk.walk(base, includeHidden: true) where !n.isDir && !n.isLink {
                let parts = n.rel.split(separator: "/")
                // A copy a kill cut short: never in view, gone once the library is opened again.
                if let staging = parts.first(where: { $0.hasPrefix(".carrel-copy-") }) {
                    if afterRestart, base == lib {
                        violation("\(phase): a half-made copy \(label)/\(n.rel) (\(staging)) is left after a restart")
                    }
                    continue
                }
                // A compile a kill cut short: a hidden temporary in the Compiled
                // folder, removed when the library is opened again (unless
                // another server, still running, is compiling).
                if parts.count >= 2, parts[parts.count - 2] == "Compiled", parts.last!.hasPrefix(".carrel-compile-") {
                    if afterRestart, base == lib, opts.servers == 1 {
                        violation("\(phase): a compile's temporary \(label)/\(n.rel) is left after a restart")
                    }
                    continue
                }
                // Carrel's metadata, but for what waits in purge to be deleted.
                if let i = parts.firstIndex(of: ".carrel"), i + 1 < parts.count, parts[i + 1] != "purge" { continue }
                if n.rel == ".gitattributes" {
                    // The merge rule for order files, written whole by the first reorder.
                    let text = Disk.read(base + "/" + n.rel).map { String(decoding: $0, as: UTF8.self) } ?? ""
                    if text != ".carrel-order merge=union\n" {
                        violation("\(phase): .gitattributes is \(text.debugDescription)")
                    }
                    continue
                }
                // A market's details: Carrel's own small file, written whole (`setMarket`, `submit`).
                if parts.last == ".carrel-market" { continue }
                if let last = parts.last, last.hasPrefix(".carrel-order") {
                    checkOrderFile(base + "/" + n.rel, last: String(last), phase: phase, afterRestart: afterRestart)
                    continue
                }
                guard let bytes = Disk.read(base + "/" + n.rel) else {
                    violation("\(phase): cannot read \(label)/\(n.rel)")
                    continue
                }
                if bytes.isEmpty { continue }  // a new empty file
                let whole = String(decoding: bytes, as: UTF8.self)
                // A content line, then links: a link update rewrites the file whole or not at all.
                guard let text = Self.split(whole)?.content else {
                    violation(
                        "\(phase): \(label)/\(n.rel) has a line after its content that is no link (torn?): \(whole.prefix(120).debugDescription)"
                    )
                    continue
                }
                // A compiled document, wherever later commands took it: its
                // text is Carrel's, made whole in a hidden temporary and
                // renamed into view, so only its name is checked.
                if contents[text] == nil, text.hasPrefix(Self.compiledFrontMatter) { continue }
                if contents[text] == nil {
                    violation(
                        "\(phase): \(label)/\(n.rel) holds content the harness never wrote (truncated or garbled): \(text.prefix(60).debugDescription)"
                    )
                    continue
                }
                found[text, default: []].append("\(label)/\(n.rel)")
            }
        }
        return found
    }

    /// An order file is whole (every line a name, ending in a newline),
    /// never torn: it is swapped in complete. A temporary one is left only
    /// by a kill, and gone once its folder is read again after a restart.
    func checkOrderFile(_ path: String, last: String, phase: String, afterRestart: Bool) {
        if last != ".carrel-order" {
            // The system trash is not Carrel's to tidy.
            if afterRestart, opts.servers == 1, path.hasPrefix(lib + "/") {
                violation("\(phase): \(path) is a temporary order file left after a restart")
            }
            return
        }
        guard let bytes = Disk.read(path) else { return violation("\(phase): cannot read \(path)") }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let names = lines.allSatisfy { !$0.isEmpty && !$0.contains("/") }
        if text.isEmpty || !text.hasSuffix("\n") || !names {
            violation("\(phase): \(path) is torn or garbled: \(text.prefix(80).debugDescription)")
        }
    }

    func checkContents(phase: String, afterRestart: Bool) {
        let found = locateContents(phase: phase, afterRestart: afterRestart)
        for (c, state) in contents {
            let places = found[c] ?? []
            let id = c.split(separator: ":").dropFirst().first ?? "?"
            let inPurge = places.filter { $0.contains("/.carrel/purge/") }
            switch state {
            case .alive:
                if places.isEmpty {
                    violation("\(phase): content #\(id) is lost (it should be in the library or a Trash)")
                }
                if places.count > 1 + (copyAllowance[c] ?? 0) {
                    violation("\(phase): content #\(id) is duplicated: \(places)")
                }
                // A copy the harness asked for may be deleted for good on its
                // own while the content lives on elsewhere; the content itself
                // never may.
                let copied = (copyAllowance[c] ?? 0) > 0
                if !inPurge.isEmpty && (!copied || inPurge.count == places.count) {
                    violation("\(phase): content #\(id), never deleted for good, is in a purge folder: \(places)")
                }
            case .doomed:
                if places.count > 1 + (copyAllowance[c] ?? 0) {
                    violation("\(phase): content #\(id) is duplicated: \(places)")
                }
                if places.isEmpty {
                    contents[c] = .gone
                    destroyed += 1
                } else if inPurge.isEmpty {
                    contents[c] = .alive  // the delete never happened
                } else if afterRestart {
                    violation("\(phase): content #\(id) is still in a purge folder after a restart: \(places)")
                }
            case .gone:
                if !places.isEmpty && (afterRestart || places.count != inPurge.count) {
                    violation("\(phase): content #\(id) was deleted for good but is back: \(places)")
                }
            }
            // No command runs during a check: each copy asked for is now whole or not there.
            if let allowed = copyAllowance[c], allowed > 0 { copyAllowance[c] = max(0, places.count - 1) }
        }
        checkSnapshots(found, phase: phase, afterRestart: afterRestart)
    }

    /// How every document the torture compiles (Markdown, with the
    /// project's title page) begins.
    static let compiledFrontMatter = "---\ntitle: \""

    /// The harness's names, with the server's clash suffix (" 2") and a duplicate's (" copy", " copy 2").
    static let namePattern = try! NSRegularExpression(pattern: #"^[a-zA-Z]+[0-9]+( copy| [0-9]+)*(\.md)?$"#)

    func checkRepairedLibrary(_ server: LanguageClient?) {
        let phase = "after restart"
        for n in Disk.walk(lib, includeHidden: false) {
            // The server's clash suffix (" 2") and a duplicate's (" copy") can
            // follow any name it was given, before a file's extension.
            let base = n.name.replacingOccurrences(
                of: #"( copy| [0-9]+)+(\.md)?$"#, with: "$2", options: .regularExpression)
            // A file renamed after a folder beside it (a clash tried that is
            // none: "Compiled.md" beside the folder "Compiled").
            let stem = base.hasSuffix(".md") ? String(base.dropLast(3)) : base
            let folderNames = ["notes", "poems", "novel", "blank"]
            let ok =
                Templates.allNames.contains(base) || folderNames.contains(base.lowercased())
                || Templates.allNames.contains(stem) || folderNames.contains(stem.lowercased()) || stem == "Compiled"
                || Self.namePattern.firstMatch(in: n.name, range: NSRange(n.name.startIndex..., in: n.name)) != nil
                // Compiled documents, in the folder the first compile makes,
                // or wherever later commands took them (named after their project).
                || n.rel.split(separator: "/").dropFirst().first == "Compiled"
                || (Disk.read(lib + "/" + n.rel).map {
                    String(decoding: $0, as: UTF8.self).hasPrefix(Self.compiledFrontMatter)
                } ?? false)
            if !ok {
                violation(
                    "\(phase): unexpected visible name \(n.rel.debugDescription) (a temporary file left in view?)")
            }
            if n.isLink { violation("\(phase): a symlink appeared at \(n.rel)") }
        }
        for n in Disk.walk(lib, includeHidden: false) where n.isDir && !n.rel.contains("/") {
            let marker = lib + "/" + n.rel + "/.carrel/project.json"
            guard Disk.exists(marker) else { continue }
            guard let bytes = Disk.read(marker), let json = try? JSONParser.parse(bytes), json.objectValue != nil else {
                violation("\(phase): \(n.rel)/.carrel/project.json does not parse")
                continue
            }
            guard let type = json["type"]?.stringValue, let templates = Templates.byType[type] else {
                violation("\(phase): \(n.rel)/.carrel/project.json has no known type")
                continue
            }
            for t in templates where !Disk.isDirectory(lib + "/" + n.rel + "/" + t) {
                violation("\(phase): template folder \(n.rel)/\(t) is missing")
            }
            let trashNames = Set(
                Disk.walk(lib + "/" + n.rel + "/Trash", includeHidden: true).filter { !$0.rel.contains("/") }.map(
                    \.name))
            // Provenance lives in one record file per Trash item; project.json
            // keeps settings only, and nothing device-local is in the library.
            if json["trash"] != nil { violation("\(phase): \(n.rel)/.carrel/project.json still holds Trash records") }
            for leftover in ["lock", ".project.json.previous"]
            where Disk.exists(lib + "/" + n.rel + "/.carrel/" + leftover) {
                violation("\(phase): \(n.rel)/.carrel/\(leftover) is in the library")
            }
            let recordFolder = lib + "/" + n.rel + "/.carrel/trash"
            var recordsOf: [String: Int] = [:]
            for r in Disk.walk(recordFolder, includeHidden: true) where !r.rel.contains("/") && !r.isDir {
                guard let bytes = Disk.read(recordFolder + "/" + r.rel), let record = try? JSONParser.parse(bytes),
                    let name = record["name"]?.stringValue
                else {
                    violation("\(phase): \(n.rel) Trash record file \(r.name.debugDescription) is not a record")
                    continue
                }
                recordsOf[name, default: 0] += 1
                if !trashNames.contains(name) {
                    violation("\(phase): \(n.rel) Trash record \(name.debugDescription) points at nothing in Trash")
                }
                if record["from"]?.stringValue == nil {
                    violation("\(phase): \(n.rel) Trash record \(name.debugDescription) has no “from”")
                }
            }
            for (name, count) in recordsOf where count > 1 {
                violation("\(phase): \(n.rel) Trash item \(name.debugDescription) has \(count) records")
            }
            let purge = lib + "/" + n.rel + "/.carrel/purge"
            if Disk.exists(purge), !Disk.walk(purge, includeHidden: true).isEmpty {
                violation("\(phase): \(n.rel)/.carrel/purge still holds an unfinished purge")
            }
        }
        // The model the restarted server built equals the disk.
        guard let server else { return }
        let roots: [JSONValue]
        do {
            roots = try server.send(Tree())
        } catch LanguageClient.Failure.serverGone, LanguageClient.Failure.timeout {
            return  // killed meanwhile: checked next time
        } catch {
            violation("\(phase): carrel/tree failed: \(error)")
            return
        }
        var shown = Set<String>()
        var stack = roots
        while let node = stack.popLast() {
            if node["kind"] == "file", let u = node["uri"]?.stringValue, let p = try? FileURI.path(u) {
                shown.insert(String(decoding: p, as: UTF8.self))
            }
            stack += node["children"]?.arrayValue ?? []
        }
        let onDisk = Set(Disk.walk(lib, includeHidden: false).filter { !$0.isDir }.map { lib + "/" + $0.rel })
        if shown != onDisk {
            violation(
                "\(phase): the server's tree differs from the disk: only shown \(shown.subtracting(onDisk).sorted()), only on disk \(onDisk.subtracting(shown).sorted())"
            )
        }
    }
}
