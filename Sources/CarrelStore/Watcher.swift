import CCarrelSys
import Foundation
import Glibc

/// One raw change the kernel reported, in a watched directory.
public struct WatchEvent: Sendable {
    public let watch: Int32
    public let mask: UInt32
    public let cookie: UInt32
    public let name: [UInt8]

    public var isOverflow: Bool { mask & UInt32(IN_Q_OVERFLOW) != 0 }
    public var isMovedFrom: Bool { mask & UInt32(IN_MOVED_FROM) != 0 }
    public var isMovedTo: Bool { mask & UInt32(IN_MOVED_TO) != 0 }
    public var isCreate: Bool { mask & UInt32(IN_CREATE) != 0 }
    public var isDelete: Bool { mask & UInt32(IN_DELETE) != 0 }
    public var isContentChange: Bool { mask & UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB) != 0 }
    public var watchGone: Bool { mask & UInt32(IN_IGNORED) != 0 }
}

/// inotify, one watch per directory. Events are read on a thread of their own,
/// gathered for a few milliseconds so a burst (a `git checkout`) arrives as
/// one batch, then handed to `deliver`. `catchUp` hands on, at once and on
/// the caller's thread, whatever the kernel has reported so far, so a
/// command acts on the disk as it was when the command was sent.
/// Directories that cannot get a watch (max_user_watches reached) are
/// polled by the owner instead.
public final class Watcher: @unchecked Sendable {
    public static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)

    /// How long a first event waits for others: the few events of a save,
    /// a `touch` or a rename come within microseconds of each other, and a
    /// lone change should show as soon as it can.
    static let firstGatherMs: UInt32 = 2
    /// How long a burst may pause and still be one batch.
    static let gatherMs: UInt32 = 10

    private let fd: Int32
    /// A pipe whose write end `stop` writes to, waking the reading thread:
    /// closing an fd another thread polls does not wake it.
    private let stopRead: Int32
    private let stopWrite: Int32
    private let deliver: @Sendable ([WatchEvent]) -> Void
    /// Told, on the reading thread, why watching ended when the kernel's
    /// descriptor fails, so the owner can say so: nothing another program
    /// changes is seen after that.
    private let failed: @Sendable (String) -> Void
    private var thread: Thread?
    /// Read and written only on the reading thread.
    private var stopped = false
    /// Held while events are read from the kernel and while a batch is
    /// handed on, so batches reach `deliver` in the order the kernel
    /// reported them, whichever thread hands them on.
    private let handoff = NSLock()
    /// What the reading thread has read and not yet handed on. Under `handoff`.
    private var gathering: [WatchEvent] = []
    /// Set once `fd` is closed, so `catchUp` never reads a number the
    /// process may since have given to another file. Under `handoff`.
    private var closed = false
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    /// Why the last read that ended watching failed. Under `handoff`.
    private var readFailure = ""

    /// nil when inotify is unavailable; the owner then polls everything.
    public convenience init?(
        deliver: @escaping @Sendable ([WatchEvent]) -> Void, failed: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        // Non-blocking: `catchUp` reads what is there without waiting, and the
        // reading thread waits in poll(2), never in read(2).
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        self.init(descriptor: fd, deliver: deliver, failed: failed)
    }

    /// Reads events from `descriptor`, which it owns from now on: the tests
    /// give it one that fails as an inotify descriptor never does on demand.
    init?(
        descriptor: Int32, deliver: @escaping @Sendable ([WatchEvent]) -> Void,
        failed: @escaping @Sendable (String) -> Void
    ) {
        fd = descriptor
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(fd)
            return nil
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        stopRead = ends[0]
        stopWrite = ends[1]
        self.deliver = deliver
        self.failed = failed
    }

    public func start() {
        let t = Thread { [self] in
            self.run()
            self.closeAll()
        }
        t.name = "carrel-watcher"
        thread = t
        t.start()
    }

    /// Ends the reading thread and gives the inotify instance back. A user
    /// has only 128 of them, and a process that makes many servers (the
    /// tests) would otherwise run out and silently fall back to polling.
    /// Watches added after this fail, and the owner polls those folders.
    public func stop() {
        guard thread != nil else { return closeAll() }
        var one: UInt8 = 1
        _ = write(stopWrite, &one, 1)
    }

    private func closeAll() {
        handoff.lock()
        closed = true
        handoff.unlock()
        close(fd)
        close(stopRead)
        close(stopWrite)
    }

    public enum AddResult {
        case added(Int32)
        case noWatchesLeft
        case failed(Int32)
    }

    public func add(_ path: [UInt8]) -> AddResult {
        let wd = BytePath.withCString(path) { inotify_add_watch(fd, $0, Self.mask) }
        if wd >= 0 { return .added(wd) }
        return errno == ENOSPC ? .noWatchesLeft : .failed(errno)
    }

    public func remove(_ wd: Int32) { inotify_rm_watch(fd, wd) }

    private func run() {
        // Events arrive while a command is still running (its own moves),
        // and on two cores reading them at once preempted the command: about
        // 25 µs a delete. As batch work, this thread waits for a free core.
        _ = carrel_sched_batch_this_thread()
        while true {
            guard waitReadable(timeoutMs: -1), !stopped else { return }
            guard readAvailable() else { return endOnFailure() }
            // Gather the rest of a burst, but never hold events back longer
            // than ~50 ms. Sleeping, not polling: while this thread sleeps,
            // events queue without waking it, so a command's own writes and
            // moves (four or five events a delete) do not each pay for a
            // wake-up of this thread.
            let deadline = Clock.nowMs() + 50
            var pause = Self.firstGatherMs
            while Clock.nowMs() < deadline, gatheredCount() <= 100_000 {
                usleep(pause * 1000)
                let before = gatheredCount()
                guard readAvailable() else { return endOnFailure() }
                if gatheredCount() == before { break }
                pause = Self.gatherMs
            }
            // A rename's two halves belong in one batch, or a move reads as delete + create.
            var tries = 0
            while tries < 5, gatheredHasUnpairedMove(), waitReadable(timeoutMs: 4) {
                guard readAvailable() else { return endOnFailure() }
                tries += 1
            }
            if stopped { return }
            handOn()
        }
    }

    /// The descriptor can no longer be read: what was read from it still
    /// reaches the owner, then the owner is told watching has ended.
    private func endOnFailure() {
        if stopped { return }
        handOn()
        handoff.lock()
        let why = readFailure
        handoff.unlock()
        failed(why)
    }

    /// Hands on everything the kernel has reported until now, through
    /// `deliver` on the calling thread, after any batch the reading thread
    /// handed on before. False when there was nothing.
    @discardableResult
    public func catchUp() -> Bool {
        handoff.lock()
        defer { handoff.unlock() }
        _ = readLocked()
        guard !gathering.isEmpty else { return false }
        let batch = gathering
        gathering = []
        deliver(batch)
        return true
    }

    private func handOn() {
        handoff.lock()
        defer { handoff.unlock() }
        guard !gathering.isEmpty else { return }
        let batch = gathering
        gathering = []
        deliver(batch)
    }

    private func gatheredCount() -> Int {
        handoff.lock()
        defer { handoff.unlock() }
        return gathering.count
    }

    private func gatheredHasUnpairedMove() -> Bool {
        handoff.lock()
        defer { handoff.unlock() }
        return Self.hasUnpairedMove(gathering)
    }

    /// Reads what the kernel holds into `gathering`. False when the fd is gone.
    private func readAvailable() -> Bool {
        handoff.lock()
        defer { handoff.unlock() }
        return readLocked()
    }

    static func hasUnpairedMove(_ batch: [WatchEvent]) -> Bool {
        var open = Set<UInt32>()
        for e in batch {
            if e.isMovedFrom { open.insert(e.cookie) } else if e.isMovedTo { open.remove(e.cookie) }
        }
        return !open.isEmpty
    }

    /// Waits up to `timeoutMs` (-1: forever) for events or `stop`. False
    /// on a timeout and on `stop` (which sets `stopped`). Anything the
    /// descriptor reports, an error or a hang-up too, is true: the read that
    /// follows says whether events are still there or the descriptor is
    /// gone, so watching never ends without the owner being told.
    private func waitReadable(timeoutMs: Int32) -> Bool {
        var p = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0),
        ]
        let r = poll(&p, 2, timeoutMs)
        if r < 0 { return errno == EINTR }
        if r == 0 { return false }
        if p[1].revents != 0 {
            stopped = true
            return false
        }
        return p[0].revents != 0
    }

    /// Appends every event the kernel holds to `gathering`, without
    /// waiting. Under `handoff`. False when the fd is gone.
    private func readLocked() -> Bool {
        guard !closed else { return false }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                let error = errno
                if error == EAGAIN || error == EINTR { return true }
                readFailure = "reading the kernel's change events failed: \(String(cString: strerror(error)))"
                return false
            }
            if n == 0 {
                readFailure = "the kernel's change events ended"
                return false
            }
            buffer.withUnsafeBytes { raw in
                var off = 0
                let header = MemoryLayout<inotify_event>.size
                while off + header <= n {
                    let ev = raw.loadUnaligned(fromByteOffset: off, as: inotify_event.self)
                    let nameStart = off + header
                    var nameBytes: [UInt8] = []
                    if ev.len > 0 {
                        let slice = raw[nameStart..<(nameStart + Int(ev.len))]
                        nameBytes = Array(slice.prefix { $0 != 0 })
                    }
                    gathering.append(WatchEvent(watch: ev.wd, mask: ev.mask, cookie: ev.cookie, name: nameBytes))
                    off = nameStart + Int(ev.len)
                }
            }
        }
    }
}
