import CarrelClient
import Foundation
import Glibc

/// Fires one SIGKILL after a delay, noting what was in flight at that moment.
final class Killer: @unchecked Sendable {
    private let lock = NSCondition()
    private var armed = false
    private var fired = false
    private(set) var inFlight: String?
    var pending: String? {
        get { lock.lock(); defer { lock.unlock() }; return _pending }
        set { lock.lock(); _pending = newValue; lock.unlock() }
    }
    private var _pending: String?

    func arm(_ server: LanguageClient, afterMicroseconds us: UInt32) {
        lock.lock()
        if armed { lock.unlock(); return }
        armed = true
        lock.unlock()
        let t = Thread { [self] in
            if us > 0 { usleep(us) }
            lock.lock()
            inFlight = _pending
            server.process.kill()
            fired = true
            lock.broadcast()
            lock.unlock()
        }
        t.start()
    }

    var isArmed: Bool { lock.lock(); defer { lock.unlock() }; return armed }

    func waitFired() {
        lock.lock()
        while !fired { lock.wait() }
        lock.unlock()
    }
}
