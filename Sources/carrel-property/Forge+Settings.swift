import CarrelJSON
import Foundation

/// project.json as another machine, an old version or a hostile clone
/// might leave it: settings stamped at the extremes, entries the decoder
/// drops, roles naming the writer's folders, unknown keys and types.
extension PropertyRun {
    /// A `changed` stamp: the extremes a number can take on the wire.
    func stamp() -> JSONValue {
        switch random(10) {
        case 0, 1, 2: return .int(Int.max)
        case 3: return .int(Int.max - 1)
        case 4: return .int(Int.min)
        case 5: return .int(-1)
        case 6: return .int(0)
        case 7: return .double(pick([1e300, -1e300, 9.3e18, 1.5])!)
        case 8: return .string("later")
        default: return .int(1_767_225_600_000 + random(1_000_000))
        }
    }

    func setting(_ value: JSONValue) -> JSONValue { .object(["changed": stamp(), "value": value]) }

    func projectJSON(_ project: String) -> [String: JSONValue] {
        guard let bytes = Disk.read(box.path(project + "/.carrel/project.json")),
            case .object(let o)? = try? JSONParser.parse(bytes)
        else { return [:] }
        return o
    }

    /// Settings keyed by path, kept ones and ones the decoder drops (a
    /// target of "abc", a sort "bogus"), each stamped at an extreme.
    func forgedSettings(_ project: String) -> [String: JSONValue] {
        var json = projectJSON(project)
        let folders = writerFolders(project)
        var targets = json["targets"]?.objectValue ?? [:]
        var sorts = json["folderSorts"]?.objectValue ?? [:]
        for _ in 0..<(1 + random(4)) {
            let path = pick(folders).map { $0 + "/poem\(random(6)).md" } ?? "poem.md"
            targets[path] = setting(pick([.int(500), .string("abc"), .int(-3), .double(1e20), .null, .int(0)])!)
            let folder = pick(folders) ?? ""
            sorts[folder] = setting(
                pick([
                    .object(["by": "bogus"]), .object(["by": "name", "descending": true]), .string("name"), .null,
                    .object(["by": .int(3)]),
                ])!)
        }
        json["targets"] = .object(targets)
        json["folderSorts"] = .object(sorts)
        for (group, key) in [("sort", "by"), ("sort", "descending"), ("preferences", "confirmDelete")]
        where chance(50) {
            var o = json[group]?.objectValue ?? [:]
            o[key] = setting(key == "by" ? .string(pick(["name", "manual", "sideways"])!) : .bool(chance(50)))
            json[group] = .object(o)
        }
        if chance(20) { json["unknownKey"] = setting(.array([1, "two", .null])) }
        return json
    }

    /// `folders` roles naming a writer's folder, or places no folder can be.
    func forgedRoles(_ project: String, into json: inout [String: JSONValue]) {
        var roles = json["folders"]?.objectValue ?? [:]
        let writer = pick(writerFolders(project)) ?? "Notes"
        roles["trash"] = .string(chance(70) ? writer : pick(["..", ".carrel", "/tmp", "Trash/Inner"])!)
        if chance(30) { roles["draft"] = "Trash" }
        json["folders"] = .object(roles)
    }

    func writeProjectJSON(_ project: String, _ json: [String: JSONValue], name: String = "project.json") {
        Disk.write(box.path(project + "/.carrel/" + name), JSONValue.object(json).encoded(pretty: true) + [0x0A])
    }

    func forgeSettings(_ project: String) {
        var json = projectJSON(project)
        if hazards.contains(.forgedStamps) { json = forgedSettings(project) }
        if hazards.contains(.rolesOnWriterFolders) && chance(60) { forgedRoles(project, into: &json) }
        if chance(4) { json["type"] = pick(["epic", .int(3), .null])! }
        writeProjectJSON(project, json)
    }

    /// Syncthing's copy of project.json from another machine, with forged
    /// roles or stamps, for the server to merge.
    func settingsConflictCopy(_ project: String) {
        var json = projectJSON(project)
        if chance(70) { forgedRoles(project, into: &json) } else { json = forgedSettings(project) }
        writeProjectJSON(project, json, name: "project.sync-conflict-20260101-120000-ABCDEFG.json")
    }
}
