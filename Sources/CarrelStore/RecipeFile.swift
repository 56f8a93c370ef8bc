import CarrelJSON
import CarrelModel
import Glibc

/// A project's own compile recipes: one file each in `.carrel/recipes`,
/// `<name>.json`, written by the writer and never by Carrel, so nothing
/// Carrel writes there can conflict. Each names the built-in recipe it
/// starts from (`base`) and the keys it changes; keys it does not know are
/// ignored. Read untrusted, like everything in `.carrel`: no-follow,
/// non-blocking, plain files of at most `limit` bytes.
public enum RecipeFile {
    public static let folderName = "recipes"
    public static let limit = 64 << 10
    /// More than any writer keeps; a folder of thousands is not read whole.
    public static let maxRecipes = 100

    /// A recipe file that could not be used, and why, for the writer.
    public struct Problem: Error, Sendable, Equatable {
        public let name: String
        public let why: String
    }

    /// The names of the recipe files (without `.json`), in name order. A
    /// missing folder is no recipes; one that is not a real folder is refused.
    public static func names(_ projectPath: [UInt8]) throws(SysError) -> [String] {
        let carrel = try ProjectFile.carrelFolder(projectPath)
        guard carrel.kind(of: Array(folderName.utf8)) != nil else { return [] }
        let folder = try carrel.realSubdirectory(Array(folderName.utf8))
        var out: [String] = []
        for (raw, _) in try folder.list() {
            guard let name = String(validating: raw, as: UTF8.self), name.hasSuffix(".json"), !name.hasPrefix("."),
                !ConflictCopy.isCopy(name)
            else { continue }
            out.append(String(name.dropLast(5)))
            if out.count >= maxRecipes { break }
        }
        return out.sorted()
    }

    /// The recipe `name` of a project of `type`: the built-in one of that
    /// name, changed by the project's file of that name when there is one.
    public static func recipe(_ name: String, of type: ProjectType, at projectPath: [UInt8]) throws(Problem)
        -> CompileRecipe?
    {
        let builtIn = type.recipes.first { $0.name == name }
        let own: [UInt8]
        do {
            guard try names(projectPath).contains(name) else { return builtIn }
            let folder = try ProjectFile.carrelFolder(projectPath).realSubdirectory(Array(folderName.utf8))
            own = try folder.readPlainFile(Array("\(name).json".utf8), limit: limit)
        } catch {
            throw Problem(name: name, why: error.description)
        }
        let json: JSONValue
        do { json = try JSONParser.parse(own, refusingInvalidUTF8: true) } catch {
            throw Problem(name: name, why: error.description)
        }
        guard case .object(let keys) = json else { throw Problem(name: name, why: "it is not a JSON object") }
        return try decode(keys, name: name, type: type)
    }

    static func decode(_ keys: [String: JSONValue], name: String, type: ProjectType) throws(Problem) -> CompileRecipe {
        func bad(_ key: String, _ wanted: String) -> Problem { Problem(name: name, why: "“\(key)” must be \(wanted)") }
        var base = type.recipes[0]
        if let b = keys["base"] {
            guard let s = b.stringValue, let found = type.recipes.first(where: { $0.name == s }) else {
                throw bad("base", "one of \(type.recipes.map(\.name).joined(separator: ", "))")
            }
            base = found
        }
        var r = base
        r.name = name
        r.title = Localized(en: name, fr: name)
        if let v = keys["title"] {
            guard let s = v.stringValue, !s.isEmpty, s.utf8.count <= 200 else { throw bad("title", "a short text") }
            r.title = Localized(en: s, fr: s)
        }
        if let v = keys["format"] {
            guard let s = v.stringValue, let f = CompileRecipe.Format(rawValue: s) else {
                throw bad("format", CompileRecipe.Format.allCases.map(\.rawValue).joined(separator: ", "))
            }
            r.format = f
        }
        if let v = keys["folders"] {
            let roles = Set(type.directories.map(\.role.rawValue)).subtracting(["trash"])
            guard case .array(let items) = v, items.count <= 32,
                let list = Optional(items.compactMap(\.stringValue)), list.count == items.count,
                list.allSatisfy(roles.contains)
            else { throw bad("folders", "a list of this project's folders: \(roles.sorted().joined(separator: ", "))") }
            r.folders = list.map(FolderRole.init(rawValue:))
        }
        func flag(_ key: String) throws(Problem) -> Bool? {
            guard let v = keys[key] else { return nil }
            guard let b = v.boolValue else { throw bad(key, "true or false") }
            return b
        }
        if let b = try flag("folderTitles") { r.folderTitles = b }
        if let b = try flag("fileTitles") { r.fileTitles = b }
        if let b = try flag("titlePage") { r.titlePage = b }
        if let b = try flag("contents") { r.contents = b }
        if let v = keys["separator"] {
            guard let s = v.stringValue, s.utf8.count <= CompileRecipe.maxSeparator,
                !s.contains(where: { $0.isNewline })
            else { throw bad("separator", "one line of at most \(CompileRecipe.maxSeparator) bytes") }
            r.separator = s
        }
        if let v = keys["pageBreaks"] {
            guard let s = v.stringValue, let p = CompileRecipe.PageBreaks(rawValue: s) else {
                throw bad("pageBreaks", "none, folders or files")
            }
            r.pageBreaks = p
        }
        return r
    }
}
