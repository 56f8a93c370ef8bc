import CarrelJSON
import Foundation

extension Fixture {
    /// The Trash records of the project at `project`, as each record file
    /// in its `.carrel/trash` says: item name → where it came from. Of two
    /// records of one name, the later file wins, as for Carrel.
    public func trashRecords(_ project: String) -> [String: String] {
        Self.trashRecords(atProject: path + "/" + project)
    }

    public static func trashRecords(atProject project: String) -> [String: String] {
        let folder = project + "/.carrel/trash"
        var out: [String: String] = [:]
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for file in files.sorted() where file.hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: folder + "/" + file),
                let json = try? JSONParser.parse(Array(data)),
                let name = json["name"]?.stringValue, let from = json["from"]?.stringValue
            else { continue }
            out[name] = from
        }
        return out
    }
}
