import CarrelModel
import CarrelRandom
import Foundation
import Glibc

/// The synthetic library: projects of every type, plain folders, Unicode and
/// long names, one folder with 1,000 children and one with 1,000 descendants.
struct SyntheticLibrary {
    let root: String
    let files: Int
    let folders: Int
    let depth: Int

    /// Folders the benchmark uses by name.
    var wide: String { root + "/Poetry Project/Draft/Wide" }
    var heavy: String { root + "/Poetry Project/Draft/Heavy" }
    var heavyParents: (String, String) { (root + "/Poetry Project/Draft", root + "/Poetry Project/Ready") }
    var project: String { root + "/Poetry Project" }
    var scratch: String { root + "/Poetry Project/Research/Bench" }

    static let words = [
        "Chapter", "Scene", "Draft", "Notes", "Letter", "Poem", "Sonnet", "Essay", "Journal", "Outline",
        "Café", "Überblick", "日本の夏", "Crème brûlée", "Ode 🌊", "Résumé", "Naïve", "Ελληνικά", "Kapitel", "Mémoire",
    ]

    func make() throws {
        var rng = SeededRandom(seed: 0xC0FFEE)
        try mkdirs(root)
        let types = ProjectType.ids
        let template = Dictionary(
            uniqueKeysWithValues: ProjectType.all.map { ($0.id, $0.directories.compactMap(\.diskName)) })
        var folderPool: [(path: String, depth: Int)] = []
        for type in types {
            let name = type == "poetry" ? "Poetry Project" : "\(type.prefix(1).uppercased())\(type.dropFirst()) Project"
            let p = root + "/" + name
            try mkdirs(p + "/.carrel")
            try #"{"type":"\#(type)","version":1}"#.write(
                toFile: p + "/.carrel/project.json", atomically: false, encoding: .utf8)
            for f in template[type]! where f != "Trash" { try mkdirs(p + "/" + f); folderPool.append((p + "/" + f, 2)) }
            try mkdirs(p + "/Trash")
        }
        for i in 0..<5 { try mkdirs(root + "/Plain \(i)"); folderPool.append((root + "/Plain \(i)", 1)) }
        try mkdirs(wide)
        try mkdirs(heavy)
        try mkdirs(scratch)
        var made = folderPool.count + 3 + 5 * 12
        // The 1,000 descendants of Heavy: 100 folders of 9 files.
        for i in 0..<100 {
            let d = heavy + "/Part \(i)"
            try mkdirs(d)
            for j in 0..<9 { touch(d + "/Page \(j).md", "heavy \(i) \(j)") }
            made += 1
        }
        var fileCount = 900
        for i in 0..<1000 { touch(wide + "/Wide \(i).md", "wide \(i)"); fileCount += 1 }
        while made < folders {
            let parent = folderPool[rng.below(folderPool.count)]
            guard parent.depth < depth else { continue }
            let p = parent.path + "/" + name(&rng, made)
            try mkdirs(p)
            folderPool.append((p, parent.depth + 1))
            made += 1
        }
        while fileCount < files {
            let parent = folderPool[rng.below(folderPool.count)]
            touch(parent.path + "/" + name(&rng, fileCount) + ".md", "file \(fileCount)")
            fileCount += 1
        }
    }

    /// Gives every folder an order file listing its visible children in
    /// reverse name order, as a library ordered by hand throughout would be.
    /// Returns how many it wrote.
    func orderEveryFolder() -> Int {
        var written = 0
        var stack = [root]
        while let dir = stack.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            let visible = names.filter { !$0.hasPrefix(".") }.sorted().reversed()
            for n in visible {
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: dir + "/" + n, isDirectory: &isDir), isDir.boolValue {
                    stack.append(dir + "/" + n)
                }
            }
            guard !visible.isEmpty, !dir.hasSuffix("/.carrel") else { continue }
            touch(dir + "/.carrel-order", visible.map { $0 + "\n" }.joined())
            written += 1
        }
        return written
    }

    private func name(_ rng: inout SeededRandom, _ n: Int) -> String {
        let w = Self.words[rng.below(Self.words.count)]
        if rng.below(50) == 0 { return String(repeating: w + " ", count: 8).prefix(180) + " \(n)" }  // long names
        if rng.below(20) == 0 { return "Cafe\u{301} \(n)" }  // decomposed spelling
        return "\(w) \(n)"
    }

    private func mkdirs(_ p: String) throws {
        try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
    }

    private func touch(_ p: String, _ content: String) {
        let fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        _ = content.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }
}
