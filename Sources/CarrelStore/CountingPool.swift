import CarrelModel
import Foundation
import Glibc

/// Reads and counts files on two threads at once, the caller's and one
/// kept helper, so counting a library keeps up with `wc -w`. Each job is a
/// file named in an open folder; results come back in job order. The
/// caller keeps the folders open until `run` returns.
public final class CountingPool: Sendable {
    public struct Job: Sendable {
        public let folder: Int32
        public let name: [UInt8]
        public let format: WordCount.Format
        /// Return the text too (an open buffer's file, compared with it).
        public let keepText: Bool
        /// Parse the text's links too (a Markdown or Fountain file, the
        /// index on): here, on the counting threads, from the read that
        /// counts it, rather than on the caller's once both are done.
        public let links: Bool
        /// With `links`, the library path of the file's folder: each
        /// Markdown link's target is resolved here too, off the caller's thread.
        public let linkFolder: [String]?
        public init(
            folder: Int32, name: [UInt8], format: WordCount.Format, keepText: Bool, links: Bool = false,
            linkFolder: [String]? = nil
        ) {
            self.folder = folder
            self.name = name
            self.format = format
            self.keepText = keepText
            self.links = links
            self.linkFolder = linkFolder
        }
    }

    public struct Result: Sendable {
        public var words = 0
        public var stamp: FileStamp?
        public var text: [UInt8]?
        /// With `links`: the text's links (none without a `[`); nil when not asked.
        public var links: [CachedLink]?
        /// With `linkFolder`: each link's library path, as
        /// `LinkPath.resolve` finds it (nil for a wikilink, or one leading
        /// out of the library); one for each of `links`.
        public var targets: [[String]?]?
        public var bytes = 0
    }

    /// What the helper shares with the pool; the helper holds it, not the
    /// pool, so the pool can go (and stop its helper) while the helper waits.
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        var jobs: [Job] = []
        var results: UnsafeMutableBufferPointer<Result>?
        var helperBusy = false
        var stop = false
    }

    private let shared = Shared()

    public init() {
        let shared = self.shared
        let thread = Thread { Self.helperLoop(shared) }
        thread.name = "carrel-count"
        thread.start()
    }

    deinit {
        shared.condition.lock()
        shared.stop = true
        shared.condition.broadcast()
        shared.condition.unlock()
    }

    /// Counts every job; the helper takes every other one.
    public func run(_ batch: [Job]) -> [Result] {
        guard batch.count > 1 else { return batch.map(Self.count) }
        let buffer = UnsafeMutableBufferPointer<Result>.allocate(capacity: batch.count)
        buffer.initialize(repeating: Result())
        defer { buffer.deallocate() }
        let s = shared
        s.condition.lock()
        s.jobs = batch
        s.results = buffer
        s.helperBusy = true
        s.condition.broadcast()
        s.condition.unlock()
        for i in stride(from: 0, to: batch.count, by: 2) { buffer[i] = Self.count(batch[i]) }
        s.condition.lock()
        while s.helperBusy { s.condition.wait() }
        s.jobs = []
        s.results = nil
        s.condition.unlock()
        return Array(buffer)
    }

    private static func helperLoop(_ s: Shared) {
        while true {
            s.condition.lock()
            while !s.stop && (!s.helperBusy || s.results == nil) { s.condition.wait() }
            if s.stop {
                s.condition.unlock()
                return
            }
            let batch = s.jobs
            let buffer = s.results!
            s.condition.unlock()
            for i in stride(from: 1, to: batch.count, by: 2) { buffer[i] = count(batch[i]) }
            s.condition.lock()
            s.helperBusy = false
            s.results = nil
            s.condition.broadcast()
            s.condition.unlock()
        }
    }

    static func count(_ job: Job) -> Result {
        guard let (text, stamp) = Directory.readText(in: job.folder, job.name, limit: Directory.countLimit) else {
            return Result()
        }
        let links = job.links ? CachedLink.parse(text) : nil
        let targets = job.linkFolder.flatMap { folder in
            links?.map { $0.kind.isWiki ? nil : LinkPath.resolve($0.target, inFolder: folder) }
        }
        return Result(
            words: WordCount.count(text, job.format), stamp: stamp, text: job.keepText ? text : nil,
            links: links, targets: targets, bytes: text.count)
    }
}
