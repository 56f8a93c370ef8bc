import CarrelTestSupport

@testable import CarrelWorkspace

extension Workspace {
    /// A workspace over the library at `fx` with every file's words
    /// counted, as the server's first pass leaves it: the word cache
    /// written, and the links index filled from the same reads.
    static func counted(_ fx: Fixture) -> (Workspace, Library) {
        let ws = Workspace()
        let library = ws.addLibrary(fx.bytes())
        ws.queueUncountedWords()
        while ws.hasWordsToCount { _ = ws.countQueuedWords() }
        return (ws, library)
    }
}
