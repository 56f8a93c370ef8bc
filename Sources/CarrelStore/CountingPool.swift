import CarrelModel
import Foundation
import Glibc

/// Reads and counts files on two threads at once, the caller's and one
/// kept helper, so counting a library keeps up with `wc -w`. Each job is a
/// file named in an open folder; results come back in job order. The
/// caller keeps the folders open until `run` returns.
public final class CountingPool: @unchecked Sendable {
    public struct Job: Sendable {
        public let folder: Int32
        public let name: [UInt8]
        public let format: WordCount.Format
        /// Return the text too (an open buffer's file, compared with it).
        public let keepText: Bool
        public init(folder: Int32, name: [UInt8], format: WordCount.Format, keepText: Bool) {
            self.folder = folder
            self.name = name
            self.format = format
            self.keepText = keepText
        }
    }

    public struct Result: Sendable {
        public var words = 0
        public var stamp: FileStamp?
        public var text: [UInt8]?
        public var bytes = 0
    }

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var results: UnsafeMutableBufferPointer<Result>?
    private var helperBusy = false

    public init() {
        let thread = Thread { [unowned self] in self.helperLoop() }
        thread.name = "carrel-count"
        thread.start()
    }

    /// Counts every job; the helper takes every other one.
    public func run(_ batch: [Job]) -> [Result] {
        guard batch.count > 1 else { return batch.map(Self.count) }
        let buffer = UnsafeMutableBufferPointer<Result>.allocate(capacity: batch.count)
        buffer.initialize(repeating: Result())
        defer { buffer.deallocate() }
        condition.lock()
        jobs = batch
        results = buffer
        helperBusy = true
        condition.broadcast()
        condition.unlock()
        for i in stride(from: 0, to: batch.count, by: 2) { buffer[i] = Self.count(batch[i]) }
        condition.lock()
        while helperBusy { condition.wait() }
        jobs = []
        results = nil
        condition.unlock()
        return Array(buffer)
    }

    private func helperLoop() {
        while true {
            condition.lock()
            while !helperBusy || results == nil { condition.wait() }
            let batch = jobs
            let buffer = results!
            condition.unlock()
            for i in stride(from: 1, to: batch.count, by: 2) { buffer[i] = Self.count(batch[i]) }
            condition.lock()
            helperBusy = false
            results = nil
            condition.broadcast()
            condition.unlock()
        }
    }

    static func count(_ job: Job) -> Result {
        guard let (text, stamp) = Directory.readText(in: job.folder, job.name, limit: Directory.countLimit) else {
            return Result()
        }
        return Result(
            words: WordCount.count(text, job.format), stamp: stamp, text: job.keepText ? text : nil, bytes: text.count)
    }
}
