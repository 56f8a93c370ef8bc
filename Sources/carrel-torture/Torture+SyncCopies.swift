import CarrelJSON
import Foundation
import Glibc

/// Sync engines' conflict copies of Carrel's own files, planted before a
/// restart so that kills during startup land in the middle of their merge.
extension Torture {
    static let copySuffix = ".sync-conflict-20261123-101500-TORTURE.json"

    /// Beside one project's project.json, another machine's version with a
    /// setting changed later; and a Trash record's copy, either beside the
    /// record or, half the time, as the item's only record. Returns the
    /// Trash items whose only record is now a copy.
    func plantSyncCopies() -> [(project: String, item: String)] {
        let projects = Disk.walk(lib, includeHidden: false).filter {
            $0.isDir && !$0.rel.contains("/") && Disk.exists(lib + "/" + $0.rel + "/.carrel/project.json")
        }
        guard let project = pick(projects)?.rel else { return [] }
        let carrel = lib + "/" + project + "/.carrel"
        if let bytes = Disk.read(carrel + "/project.json"), case .object(var json)? = try? JSONParser.parse(bytes) {
            var sort = json["sort"]?.objectValue ?? [:]
            let now = Int(Date().timeIntervalSince1970 * 1000)
            sort["descending"] = .object(["changed": .int(now), "value": .bool(chance(0.5))])
            json["sort"] = .object(sort)
            _ = Disk.write(carrel + "/project" + Self.copySuffix, JSONValue.object(json).encoded(pretty: true))
        }
        let records = Disk.walk(carrel + "/trash", includeHidden: true).filter { !$0.isDir && !$0.rel.contains("/") }
        guard let record = pick(records), record.name.hasSuffix(".json"), !record.name.contains("sync-conflict"),
            let bytes = Disk.read(carrel + "/trash/" + record.name),
            let item = (try? JSONParser.parse(bytes))?["name"]?.stringValue
        else { return [] }
        let copy = carrel + "/trash/" + String(record.name.dropLast(5)) + Self.copySuffix
        if chance(0.5) {
            _ = Disk.write(copy, bytes)
            return []
        }
        rename(carrel + "/trash/" + record.name, copy)
        return [(project, item)]
    }

    /// After a restart that initialized: no copy is left, and an item whose
    /// only record was a copy still has one.
    func checkSyncCopiesMerged(_ planted: [(project: String, item: String)], phase: String) {
        for n in Disk.walk(lib, includeHidden: true) where n.name.contains(".sync-conflict-") {
            violation("\(phase): a conflict copy of Carrel's own files is left: \(n.rel)")
        }
        for (project, item) in planted where Disk.exists(lib + "/" + project + "/Trash/" + item) {
            let folder = lib + "/" + project + "/.carrel/trash"
            let names = Disk.walk(folder, includeHidden: true).compactMap { r -> String? in
                guard let bytes = Disk.read(folder + "/" + r.rel) else { return nil }
                return (try? JSONParser.parse(bytes))?["name"]?.stringValue
            }
            if !names.contains(item) {
                violation("\(phase): \(project)/Trash/\(item) lost its provenance with its record's conflict copy")
            }
        }
    }
}
