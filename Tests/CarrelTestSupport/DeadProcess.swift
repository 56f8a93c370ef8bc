import Foundation

/// The pid of a process that ran and is gone, as a crashed Carrel's is:
/// what a leftover is named after when no process will come back for it.
public func deadPid() throws -> Int32 {
    let dead = Process()
    dead.executableURL = URL(fileURLWithPath: "/bin/true")
    try dead.run()
    dead.waitUntilExit()
    return dead.processIdentifier
}
