import CarrelJSON
import Foundation

/// Steps on what Carrel keeps beside the writer's files (snapshots,
/// markets, submission records), aimed most often at what was forged, and
/// the listings' checks: each forged file skipped with its reason, the
/// good ones listed.
extension PropertyRun {
    func isPinned(_ rel: String) -> Bool {
        pinned.contains(rel) || pinned.contains { rel.hasPrefix($0 + "/") }
    }

    func keptFilesStep(_ v: View) -> Step? {
        let snapshotted = forgedSnapshots.keys.sorted()
        let files = v.movable.filter { $0.hasSuffix(".md") } + snapshotted
        switch random(8) {
        case 0:
            guard let item = pick(chance(50) ? snapshotted + files : v.folders.filter { !$0.isEmpty }) else {
                return nil
            }
            return .command("carrel.snapshot", ["uri": .string(box.uri(item)), "title": "Forged"])
        case 1:
            guard let file = pick(chance(70) ? snapshotted : files) else { return nil }
            return .listing("carrel.snapshots", ["uri": .string(box.uri(file))])
        case 2:
            // A forged snapshot's name: refused with its reason, the file untouched.
            guard let file = pick(snapshotted), let name = pick(forgedSnapshots[file] ?? []) else { return nil }
            let command = chance(50) ? "carrel.rollBack" : "carrel.compareSnapshot"
            return .command(command, ["uri": .string(box.uri(file)), "snapshot": .string(name)])
        case 3:
            // A project's own listing is checked; the whole library's must only answer.
            let p = pick(projects)?.name
            return .listing("carrel/submissions", chance(30) || p == nil ? [:] : ["uri": .string(box.uri(p!))])
        case 4:
            guard let market = pick(markets) else { return nil }
            return .command("carrel.setMarket", ["uri": .string(box.uri(market)), "fields": ["fee": "£3"]])
        case 5, 6:
            guard let market = pick(markets), let project = projectOf(market),
                let piece = pick(files.filter { $0.hasPrefix(project + "/") && !$0.contains("/Trash/") })
            else { return nil }
            return .command(
                "carrel.submit",
                ["items": [.string(box.uri(piece))], "marketUri": .string(box.uri(market)), "confirmed": true])
        default:
            let forged = forgedRecords.values.joined().map { String($0.dropLast(5)) }
            guard let record = pick(goodRecords.values.joined() + forged) else { return nil }
            return .command(
                "carrel.setSubmissionStatus",
                ["record": .string(record), "status": .string(pick(["accepted", "rejected", "withdrawn"])!)])
        }
    }

    func checkListing(_ method: String, _ params: JSONValue, _ result: JSONValue) {
        switch method {
        case "carrel.snapshots":
            guard let uri = params["uri"]?.stringValue,
                let file = forgedSnapshots.first(where: { box.uri($0.key) == uri })
            else { return }
            let listed = Set((result["snapshots"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
            var skipped: [String: String] = [:]
            for s in result["skipped"]?.arrayValue ?? [] {
                if let name = s["name"]?.stringValue { skipped[name] = s["why"]?.stringValue ?? "" }
            }
            for name in file.value {
                if listed.contains(name) {
                    fail(.unlisted, "carrel.snapshots of \(file.key) listed the forged \(name.debugDescription)")
                } else if (skipped[name] ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                    fail(.unlisted, "carrel.snapshots of \(file.key) did not skip \(name.debugDescription) with why")
                }
            }
            if let hidden = (listed.union(skipped.keys)).first(where: { $0.hasPrefix(".") }) {
                fail(.unlisted, "carrel.snapshots of \(file.key) showed the hidden \(hidden.debugDescription)")
            }
        case "carrel/submissions":
            guard let uri = params["uri"]?.stringValue,
                let project = projects.first(where: { box.uri($0.name) == uri })?.name
            else { return }
            let listed = Set((result["submissions"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
            var skipped: [String: String] = [:]
            for s in result["skipped"]?.arrayValue ?? [] {
                if let name = s["record"]?.stringValue { skipped[name] = s["message"]?.stringValue ?? "" }
            }
            for name in forgedRecords[project] ?? []
            where (skipped[name] ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                fail(
                    .unlisted, "carrel/submissions of \(project) did not skip the forged record \(name) with its reason"
                )
            }
            for id in goodRecords[project] ?? [] where !listed.contains(id) {
                fail(.unlisted, "carrel/submissions of \(project) did not list the record \(id)")
            }
        default: return
        }
    }
}
