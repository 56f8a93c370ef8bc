import CarrelJSON

extension Fixture {
    /// The values of a project's keyed settings in its project.json
    /// (`targets`, `folderSorts`), by key, as the disk holds them: a
    /// cleared one is there with a null value.
    public func settings(_ name: String, of project: String) throws -> [String: JSONValue] {
        let json = try JSONParser.parse(Array((read(project + "/.carrel/project.json") ?? "").utf8))
        return (json[name]?.objectValue ?? [:]).mapValues { $0["value"] ?? .null }
    }
}
