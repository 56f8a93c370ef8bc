import CarrelModel
import CarrelStore
import Glibc

/// Compiling: a project's pieces in binder order, through a recipe, into
/// one document in the project's Compiled folder (or where the writer
/// says). Everything is read and checked before anything is written, and
/// the document appears whole under a name nothing else has.
extension Workspace {
    public struct CompileRequest: Sendable {
        public var recipe: String?
        public var format: String?
        /// An absolute path the writer named; nil for the project's Compiled folder.
        public var output: [UInt8]?
        /// To be submitted once made: a recipe that makes no packet is refused before anything is read.
        public var forSubmission: Bool
        public init(recipe: String? = nil, format: String? = nil, output: [UInt8]? = nil, forSubmission: Bool = false) {
            self.recipe = recipe
            self.format = format
            self.output = output
            self.forSubmission = forSubmission
        }
    }

    public struct Compiled: Sendable {
        public var path: [UInt8]
        public var recipe: String
        public var format: CompileRecipe.Format
        public var counts: Manuscript.Counts
        /// The files compiled, in order, by absolute path: a packet's pieces.
        public var files: [[UInt8]] = []
        /// Whether the recipe makes something sent to markets.
        public var forSubmission = false
    }

    /// A recipe a project offers, as a picker shows it; `recipe` is nil
    /// for a recipe file that cannot be used (compiling it says why).
    public struct RecipeOffer: Sendable {
        public var name: String
        public var recipe: CompileRecipe?
    }

    /// The recipes a project offers: its type's (as its own file of the
    /// same name changes them), then its other files', in name order.
    public func recipes(of target: Target) throws(Failure) -> [RecipeOffer] {
        let (project, _) = try compiledProject(target)
        let builtIn = project.type.recipes.map(\.name)
        let own = (try? RecipeFile.names(project.root.path)) ?? []
        return (builtIn + own.filter { !builtIn.contains($0) }).map { name in
            RecipeOffer(name: name, recipe: try? RecipeFile.recipe(name, of: project.type, at: project.root.path))
        }
    }

    /// The title page's byline as project.json holds it.
    public func byline(of target: Target) throws(Failure) -> (author: String?, contact: [String]) {
        let (project, _) = try compiledProject(target)
        return (project.metadata.author, project.metadata.contact)
    }

    func compiledProject(_ target: Target) throws(Failure) -> (Project, Library) {
        let (entry, library) = try entryTarget(target)
        try checkUnlocked(entry, library)
        guard let project = library.project(at: entry) else {
            throw Failure(.notAProject, .compile(.notAProject(name: title(of: entry, in: library))))
        }
        return (project, library)
    }

    /// Compiles the project at `target`; `progress` hears each step (a
    /// message and a percentage) while it runs.
    public func compile(
        _ target: Target, _ request: CompileRequest, progress: (CompileStep, Int) -> Void = { _, _ in }
    ) throws(Failure) -> (Compiled, Outcome) {
        let (project, library) = try compiledProject(target)
        let type = project.type
        let name = request.recipe ?? type.recipes[0].name
        var recipe: CompileRecipe
        do {
            guard let found = try RecipeFile.recipe(name, of: type, at: project.root.path) else {
                let known = (type.recipes.map(\.name) + ((try? RecipeFile.names(project.root.path)) ?? []))
                throw Failure(
                    .invalidParams, .compile(.unknownRecipe(given: name, known: known.joined(separator: ", "))))
            }
            recipe = found
        } catch let problem as RecipeFile.Problem {
            throw Failure(.cannotCompile, .compile(.recipeUnusable(name: problem.name, why: problem.why)))
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(.io, .io(path: BytePath.display(project.root.path), detail: "\(error)"))
        }
        if request.forSubmission, !recipe.forSubmission {
            throw Failure(.invalidParams, .submissionOffer(.notAPacket(recipe: recipe.name)))
        }
        if let given = request.format {
            guard let format = CompileRecipe.Format(rawValue: given) else {
                let known = CompileRecipe.Format.allCases.map(\.rawValue).joined(separator: ", ")
                throw Failure(.invalidParams, .compile(.unknownFormat(given: given, known: known)))
            }
            recipe.format = format
        }
        // The programs first: a missing one is said before any reading.
        var pandoc: String?
        var pdfEngine: String?
        if recipe.format.needsPandoc {
            guard let found = ExternalProgram.find("pandoc") else {
                throw Failure(.cannotCompile, .compile(.pandocMissing(format: recipe.format.title.en)))
            }
            pandoc = found
            if recipe.format == .pdf {
                pdfEngine = ["pdflatex", "xelatex", "lualatex", "wkhtmltopdf", "weasyprint"].first {
                    ExternalProgram.find($0) != nil
                }
                if pdfEngine == nil { throw Failure(.cannotCompile, .compile(.noPDFEngine)) }
            }
        }
        progress(.reading, 0)
        var files: [[UInt8]] = []
        let pieces = try gather(project, library, recipe, files: &files)
        if !pieces.contains(where: { $0.kind == .file }) {
            let folders = recipe.folders.compactMap { type.folder($0)?.title.en }
            throw Failure(
                .cannotCompile,
                .compile(
                    .nothingToCompile(
                        project: project.root.name.string,
                        folders: folders.isEmpty ? "the project" : folders.map { "“\($0)”" }.joined(separator: ", "))))
        }
        var byline = Manuscript.Byline(title: project.root.name.string)
        byline.author = project.metadata.author
        byline.contact = project.metadata.contact
        let manuscriptTarget: Manuscript.Target
        switch recipe.format {
        case .markdown: manuscriptTarget = .markdown
        case .text: manuscriptTarget = .text
        case .html: manuscriptTarget = .html
        case .fountain: manuscriptTarget = .fountain
        default: manuscriptTarget = .pandoc(recipe.format)
        }
        progress(.assembling, 50)
        let (text, counts) = Manuscript.compile(pieces, recipe, byline, to: manuscriptTarget)

        // Where it goes: the named path, or the project's Compiled folder.
        let folder: Directory
        let preferred: String
        var madeCompiled = false
        var createdCompiled = false
        if let output = request.output {
            let (dir, last) = BytePath.split(output)
            guard let name = String(validating: last, as: UTF8.self), !name.isEmpty, !name.hasPrefix(".") else {
                throw Failure(.invalidName, .nameHidden)
            }
            do { folder = try Directory.open(dir) } catch { throw failure(for: error) }
            preferred = name
        } else {
            if project.compiled == nil {
                let root = try open(project.root, in: library)
                do {
                    try root.makeDirectory(Array(PermanentFolder.compiled.diskName!.utf8))
                    createdCompiled = true
                } catch {
                    if error.code != EEXIST { throw failure(for: error) }
                }
                root.sync()
                madeCompiled = true
            }
            let root = try open(project.root, in: library)
            do { folder = try root.realSubdirectory(Array(PermanentFolder.compiled.diskName!.utf8)) } catch {
                throw failure(for: error)
            }
            let suffix = recipe.name == type.recipes[0].name ? "" : " (\(recipe.name))"
            preferred = "\(project.root.name.string)\(suffix).\(recipe.format.fileExtension)"
        }
        progress(.writing, 70)
        let written: String
        // A failed write leaves nothing: the temporaries go with it, and a
        // Compiled folder this compile made goes too (only while empty).
        func undoCompiledFolder() {
            guard createdCompiled, let root = try? open(project.root, in: library) else { return }
            if (try? root.removeEmptyDirectory(Array(PermanentFolder.compiled.diskName!.utf8))) != nil { root.sync() }
        }
        do {
            if let pandoc {
                written = try runPandoc(
                    pandoc, text, recipe, byline, engine: pdfEngine, in: folder, as: preferred)
            } else {
                let temporary = Directory.temporaryName("out")
                try folder.writeTemporary(temporary, Array(text.utf8))
                written = try folder.publish(temporary, as: preferred)
            }
        } catch let failure as Failure {
            undoCompiledFolder()
            throw failure
        } catch let error as SysError {
            undoCompiledFolder()
            if [ENOSPC, EFBIG, EDQUOT].contains(error.code) {
                let place = request.output == nil ? PermanentFolder.compiled.diskName! : BytePath.display(folder.path)
                throw Failure(.io, .compile(.noRoom(folder: place, why: error.message)))
            }
            throw failure(for: error)
        } catch {
            undoCompiledFolder()
            throw Failure(.io, .io(path: BytePath.display(folder.path), detail: "\(error)"))
        }
        progress(.done, 100)
        let path = BytePath.join(folder.path, Array(written.utf8))
        var changes: [Change] = []
        // The model learns of what appeared inside the library, as after any command.
        if request.output == nil {
            if madeCompiled, let root = Optional(project.root), let dir = try? open(root, in: library) {
                changes += added(PermanentFolder.compiled.diskName!, in: root, dir: dir, library: library).changes
            }
            if let compiledEntry = project.compiled, compiledEntry.child(written) == nil {
                changes += added(written, in: compiledEntry, dir: folder, library: library).changes
            }
        }
        let display =
            request.output == nil ? "\(PermanentFolder.compiled.diskName!)/\(written)" : BytePath.display(path)
        let outcome = Outcome(
            result: .item(.entry(project.root, library)), changes: changes,
            report: .compiled(path: display, words: counts.words, lines: counts.lines))
        let compiled = Compiled(
            path: path, recipe: recipe.name, format: recipe.format, counts: counts, files: files,
            forSubmission: recipe.forSubmission)
        return (compiled, outcome)
    }

    /// A compile a crash cut short left its hidden temporaries in the
    /// project's Compiled folder: they go at open. A writer's own output
    /// folder, outside the library, is never cleaned.
    func removeCompileLeftovers(_ project: Project) {
        guard let root = try? Directory.open(project.root.path),
            let compiled = try? root.realSubdirectory(Array(PermanentFolder.compiled.diskName!.utf8))
        else { return }
        let removed = compiled.removeCompileLeftovers()
        if removed > 0 {
            log("repair: removed \(removed) unfinished compile temporary(ies) in \(BytePath.display(compiled.path))")
        }
    }

    /// The pieces of the recipe's folders in binder order, each file read
    /// and checked: a link, a pipe, an unreadable, huge, binary or non-UTF-8
    /// file stops the compile, named, unless the writer left it out.
    func gather(_ project: Project, _ library: Library, _ recipe: CompileRecipe, files: inout [[UInt8]])
        throws(Failure) -> [Manuscript.Piece]
    {
        var tops: [Entry]
        if recipe.folders.isEmpty {
            tops = [project.root]
        } else {
            tops = recipe.folders.compactMap { project.type.folder($0).flatMap(project.entry(for:)) }
        }
        var pieces: [Manuscript.Piece] = []
        for top in tops { pieces += try gatherFolder(top, depth: 0, project, library, files: &files) }
        return pieces
    }

    private func gatherFolder(
        _ folder: Entry, depth: Int, _ project: Project, _ library: Library, files: inout [[UInt8]]
    ) throws(Failure) -> [Manuscript.Piece] {
        // A folder's pieces come where the folder stands among its siblings,
        // under its name; the recipe's own folders have no heading.
        var pieces: [Manuscript.Piece] = depth > 0 ? [.init(.folder, depth: depth, title: folder.name.string)] : []
        let dir = try open(folder, in: library)
        for child in library.displayOrder(of: folder, in: project) {
            if child === project.trash || child === project.compiled { continue }
            if child.conflictOf != nil { continue }
            // Spelled out only when something asks: a novel has thousands of pieces.
            let relative = { project.relativePath(of: child) }
            if !project.metadata.leftOut.isEmpty, project.metadata.isLeftOut(relative()) { continue }
            switch child.kind {
            case .directory: pieces += try gatherFolder(child, depth: depth + 1, project, library, files: &files)
            case .symlink: throw Failure(.cannotCompile, .compile(.pieceUnusable(path: relative(), why: .link)))
            case .other:
                let what = dir.kind(of: child.name.bytes).map { "\($0)" } ?? "not a file"
                throw Failure(.cannotCompile, .compile(.pieceUnusable(path: relative(), why: .notAFile(what))))
            case .file:
                pieces.append(try piece(child, depth: depth + 1, relative, in: dir))
                files.append(child.path)
            }
        }
        return pieces
    }

    private func piece(_ file: Entry, depth: Int, _ relative: () -> String, in dir: Directory) throws(Failure)
        -> Manuscript.Piece
    {
        let bytes: [UInt8]
        do {
            bytes = try dir.readPlainFile(file.name.bytes, limit: Directory.countLimit)
        } catch {
            switch error.refusal {
            case .wrongKind(let found, _)?:
                let why: CompileMessage.PieceProblem = found == .link ? .link : .notAFile("\(found)")
                throw Failure(.cannotCompile, .compile(.pieceUnusable(path: relative(), why: why)))
            case .tooLarge(let limit)?:
                throw Failure(.cannotCompile, .compile(.pieceUnusable(path: relative(), why: .tooLarge(limit))))
            case nil, .tooLargeToCopy?, .tooManyToCopy?:
                throw Failure(
                    .cannotCompile, .compile(.pieceUnusable(path: relative(), why: .unreadable(error.message))))
            }
        }
        if bytes.contains(0) { throw Failure(.cannotCompile, .compile(.pieceUnusable(path: relative(), why: .binary))) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(.cannotCompile, .compile(.pieceUnusable(path: relative(), why: .notUTF8)))
        }
        let name = file.name.string
        let stem = name.lastIndex(of: ".").map { $0 == name.startIndex ? name : String(name[..<$0]) } ?? name
        return .init(.file, depth: depth, title: stem, text: text, format: WordCount.Format(fileName: name))
    }

    /// Pandoc from a hidden Markdown temporary to a hidden output temporary,
    /// which is published only when pandoc succeeded; every temporary goes.
    private func runPandoc(
        _ pandoc: String, _ text: String, _ recipe: CompileRecipe, _ byline: Manuscript.Byline, engine: String?,
        in folder: Directory, as preferred: String
    ) throws -> String {
        let input = Directory.temporaryName("in.md")
        let output = Directory.temporaryName("out.\(recipe.format.fileExtension)")
        let reference = Directory.temporaryName("reference.\(recipe.format.fileExtension)")
        defer {
            folder.removeTemporary(input)
            folder.removeTemporary(output)
            folder.removeTemporary(reference)
        }
        try folder.writeTemporary(input, Array(text.utf8), durable: false)
        func full(_ name: [UInt8]) -> String { BytePath.display(BytePath.join(folder.path, name)) }
        var arguments = [
            "--from", "markdown", "--to", recipe.format == .pdf ? "latex" : recipe.format.rawValue,
            "--output", full(output), full(input),
        ]
        if recipe.format == .pdf, let engine { arguments[3] = "pdf"; arguments += ["--pdf-engine", engine] }
        if recipe.style == .manuscript, recipe.format == .docx || recipe.format == .odt {
            let header = byline.surname.map { "\($0) / \(byline.title) / " } ?? "\(byline.title) / "
            let document =
                recipe.format == .docx
                ? ReferenceDocument.cachedManuscript(header: header)
                : ReferenceDocument.cachedManuscriptODT(header: header)
            try folder.writeTemporary(reference, document, durable: false)
            arguments += ["--reference-doc", full(reference)]
        }
        if recipe.format == .epub { arguments += ["--metadata", "lang=en"] }
        let ended = try ExternalProgram.run(pandoc, arguments)
        guard ended.status == 0, folder.kind(of: output) == .file else {
            throw Failure(.cannotCompile, .compile(.pandocFailed(status: ended.status, detail: ended.errors)))
        }
        try folder.syncFile(output)
        return try folder.publish(output, as: preferred)
    }
}
