import CarrelModel
import CarrelStore

/// Link updates as one crash-safe step: the record of every closed file's
/// edits is durable before the first file changes (`writeLinkEdits`), and
/// the next open finishes what a stopped Carrel left.
extension Workspace {
    /// What finishing one file of a record came to.
    enum LinkFileRecovery: Equatable {
        case written
        /// It already holds the new text: the stop came after its exchange.
        case alreadyDone
        /// Neither the text read nor the text made: another program's
        /// change, or a file gone. Left as it is.
        case changed
    }

    /// Runs before the library's first read, so the model reads the
    /// finished files. A refused record is left where it is and named to
    /// the writer; nothing it names is touched.
    func finishLinkUpdates(libraryPath: [UInt8], realPath: [UInt8]) {
        for found in LinkUpdateRecord.left(for: realPath) {
            switch found.record {
            case .failure(let flaw):
                log("link update record \(found.path) refused: \(flaw)")
                notices.append(.linkRecordRefused(path: found.path, because: flaw))
            case .success(let record):
                // Its question was answered: gone before the record, so never asked again.
                if let question = record.answers { LinkQuestionRecord.removeAnswered(question, for: realPath) }
                if let move = record.move, !moveWasMade(move, in: libraryPath) {
                    // Stopped before its move: the links still fit where the item is.
                    found.remove()
                    log("link update record \(found.path): its move was never made; nothing changed")
                    continue
                }
                var written = 0
                var left: [String] = []
                for file in record.files {
                    switch finish(file, in: libraryPath) {
                    case .written: written += 1
                    case .alreadyDone: break
                    case .changed: left.append(file.path.last ?? "")
                    }
                }
                found.remove()
                log("link update record \(found.path): \(written) finished, \(left.count) changed meanwhile")
                if written > 0 { notices.append(.linkUpdatesFinished(files: written)) }
                if !left.isEmpty {
                    notices.append(.linksNotUpdated(names: left.map { "“\($0)”" }.joined(separator: ", ")))
                }
            }
        }
    }

    /// Something is at `move.to`, and nothing at `move.from`, seen without following a link.
    func moveWasMade(_ move: LinkUpdateRecord.Move, in libraryPath: [UInt8]) -> Bool {
        func exists(_ path: [String]) -> Bool {
            guard let name = path.last.map({ Array($0.utf8) }),
                let dir = try? Directory.open(root: libraryPath, components: path.dropLast().map { Array($0.utf8) })
            else { return false }
            return dir.stat(name) != nil
        }
        return exists(move.to) && !exists(move.from)
    }

    /// Makes a record's edits to one file only if it is the file read,
    /// unchanged (device, inode, size, mtime, and the text's fingerprint),
    /// through the same exchange as a live update.
    func finish(_ file: LinkUpdateRecord.File, in libraryPath: [UInt8]) -> LinkFileRecovery {
        guard let name = file.path.last.map({ Array($0.utf8) }),
            let dir = try? Directory.open(root: libraryPath, components: file.path.dropLast().map { Array($0.utf8) }),
            let now = dir.readText(name)
        else { return .changed }
        let hash = LinkUpdateRecord.hash(now.bytes)
        if UInt64(now.bytes.count) == file.afterSize, hash == file.afterHash { return .alreadyDone }
        guard now.stamp == file.before, UInt64(now.bytes.count) == file.before.size, hash == file.beforeHash else {
            return .changed
        }
        do throws(Directory.ReplaceRefusal) {
            try dir.replaceText(name, readAs: now.stamp, with: LinkRewrite.apply(file.edits, to: now.bytes))
            return .written
        } catch {
            return .changed
        }
    }
}
