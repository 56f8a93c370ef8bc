import CarrelClient
import CarrelJSON
import CarrelModel
import Foundation
import Glibc

/// `carrel-bench --compile`: compiling the manuscript of a 100,000-word
/// novel in 2,000 scene files across 40 chapters, by the real server over
/// pipes, against what the same work costs without Carrel: `cat` of the
/// same files in the same order into one (Markdown) and pandoc alone on the
/// Markdown Carrel hands pandoc for that DOCX (its line blocks, styles and
/// page breaks), with pandoc's own reference document. Each reference runs side by side with the compile
/// it is held against, one of each in turn, so both see the same load.
/// Given a synthetic library (`--files`, `--folders`), the novel is one
/// project among its 110,000 entries, so the server's peak RSS while
/// compiling is the one a writer's big library meets.
enum CompileBenchmark {
    /// The server's peak resident set (KiB) up to the words all counted, and
    /// while compiling only (the peak started again before the first compile).
    struct Peaks {
        var opening = 0
        var compiling = 0
    }

    static let chapters = 40
    static let scenesPerChapter = 50
    static let words = 100_000
    static let vocabulary = WordsBenchmark.vocabulary

    /// A scene's prose: sentences of ten words, paragraphs of a hundred.
    static func scene(_ seed: Int, words: Int) -> String {
        var out = ""
        out.reserveCapacity(words * 7)
        for i in 0..<words {
            out += vocabulary[(i &* 7 &+ seed &* 13) % vocabulary.count]
            out += i % 100 == 99 ? ".\n\n" : i % 10 == 9 ? ". " : " "
        }
        return out
    }

    static func run(
        binary: String, base: String, scale: Double, around library: SyntheticLibrary?, peaks: inout Peaks
    ) -> [Figure] {
        func iterations(_ n: Int) -> Int { max(3, Int(Double(n) * scale)) }
        if let library {
            FileHandle.standardError.write(
                Data("carrel-bench: generating \(library.files) files in \(library.folders) folders…\n".utf8))
            try! library.make()
        }
        let root = library?.root ?? base + "/Compile"
        let project = root + "/The Tide"
        let compiled = project + "/Compiled"
        let scratch = base + "/scratch"
        for dir in [root, project, project + "/.carrel", project + "/Chapters", scratch] { mkdir(dir, 0o755) }
        try! #"{"type":"novel","version":1}"#.write(
            toFile: project + "/.carrel/project.json", atomically: false, encoding: .utf8)
        var paths: [String] = []
        var pieces: [Manuscript.Piece] = []
        let perScene = words / (chapters * scenesPerChapter)
        for chapter in 0..<chapters {
            // Zero-padded, so name order (the binder's with no order file) is `cat`'s order too.
            let folder = project + "/Chapters/Chapter " + padded(chapter + 1)
            mkdir(folder, 0o755)
            pieces.append(.init(.folder, depth: 1, title: "Chapter " + padded(chapter + 1)))
            for scene in 0..<scenesPerChapter {
                let path = folder + "/Scene " + padded(scene + 1) + ".md"
                let text = self.scene(chapter * 100 + scene, words: perScene)
                try! text.write(toFile: path, atomically: false, encoding: .utf8)
                paths.append(path)
                pieces.append(.init(.file, depth: 2, title: "Scene " + padded(scene + 1), text: text))
            }
        }
        sync()
        /// Each compile writes a new document; it goes before the next, untimed.
        func clearCompiled() {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: compiled)) ?? [] {
                unlink(compiled + "/" + name)
            }
        }
        let joined = scratch + "/joined.md"
        func cat() { runToExit("/bin/sh", ["-c", "cat \"$@\" > '\(joined)'", "sh"] + paths) }

        let server = try! BenchClient(
            binary: binary, environment: ["XDG_STATE_HOME": base + "/state", "HOME": base + "/state"])
        server.send(Initialize(folders: [uri(root)], name: "Compile"))
        server.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
        _ = server.request("carrel/tree", ["depth": 1])
        // The compiles start on a library whose words are all counted, as a
        // writer's is by then; the peak is taken apart from the opening's.
        let rootURI = uri(root)
        _ = server.wait { m in
            m["method"] == "carrel/didChange"
                && (m["params"]?["changes"]?.arrayValue ?? []).contains {
                    $0["type"] == "changed" && $0["uri"]?.stringValue == rootURI
                }
        }
        peaks.opening = server.peakRSSKiB
        server.resetPeakRSS()
        let projectURI = JSONValue.string(uri(project))
        var counted = 0
        var compiledPieces = 0
        func compile(_ format: String) {
            let result = server.request(
                "workspace/executeCommand",
                [
                    "command": "carrel.compile",
                    "arguments": [["projectUri": projectURI, "format": .string(format)]],
                ])
            counted = result["words"]?.intValue ?? -1
            compiledPieces = result["pieces"]?.intValue ?? -1
        }
        /// The reference then the compile, `n` times: each pair under the same load.
        func sideBySide(_ n: Int, reference: () -> Void, format: String) -> (reference: [Double], carrel: [Double]) {
            var references: [Double] = []
            var compiles: [Double] = []
            for _ in 0..<n {
                clearCompiled()
                usleep(50_000)
                server.dropNotifications()
                references += measure(1) { _ in reference() }
                usleep(50_000)
                compiles += measure(1) { _ in compile(format) }
            }
            return (references, compiles)
        }
        var figures: [Figure] = []
        let markdownRuns = sideBySide(iterations(21), reference: cat, format: "markdown")
        figures.append(
            Figure(name: "cat of the \(paths.count) files into one (reference)", samples: markdownRuns.reference))
        figures.append(Figure(name: "carrel.compile to Markdown", samples: markdownRuns.carrel))
        figures[figures.count - 1].extra["words"] = .int(counted)
        figures[figures.count - 1].extra["pieces"] = .int(compiledPieces)
        // Pandoc alone, on the Markdown Carrel gives it for the manuscript's
        // DOCX: the same pieces through the same recipe. The `.md` Carrel
        // wrote shows these pieces are the server's.
        let recipe = ProjectType.all.first { $0.id == "novel" }!.recipes[0]
        let byline = Manuscript.Byline(title: "The Tide")
        clearCompiled()
        compile("markdown")
        let written = try? String(contentsOfFile: compiled + "/The Tide.md", encoding: .utf8)
        guard written == Manuscript.compile(pieces, recipe, byline, to: .markdown).text else {
            fatalError("the benchmark's pieces are not the ones the server compiled")
        }
        let markdown = scratch + "/The Tide.md"
        try! Manuscript.compile(pieces, recipe, byline, to: .pandoc(.docx)).text.write(
            toFile: markdown, atomically: false, encoding: .utf8)
        let searched = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        let pandoc = searched.map { "\($0)/pandoc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        if let pandoc {
            let docxRuns = sideBySide(
                iterations(11),
                reference: {
                    runToExit(
                        pandoc, ["--from", "markdown", "--to", "docx", "-o", scratch + "/out.docx", markdown])
                }, format: "docx")
            figures.append(
                Figure(name: "pandoc alone, the same Markdown to DOCX (reference)", samples: docxRuns.reference))
            figures.append(Figure(name: "carrel.compile to DOCX (manuscript)", samples: docxRuns.carrel))
        }
        clearCompiled()
        peaks.compiling = server.peakRSSKiB
        server.stop()
        return figures
    }

    static func padded(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
