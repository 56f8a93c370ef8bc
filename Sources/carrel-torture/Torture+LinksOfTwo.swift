import CarrelJSON
import CarrelProtocol
import Foundation

/// Links when two servers share the library, and the marks both modes take
/// as commands are sent.
///
/// Two servers cannot be held to "every link a move broke is fixed": each
/// finds a move's linking files in its own index, which learns of the other
/// server's moves and rewrites only through its watcher, a few milliseconds
/// later, so a move made in that window misses a link the other just wrote
/// or moved; and an update refuses a file the other server changed since it
/// read it, as it must. What holds is that an update never breaks a link it
/// had no business with: a link whose two ends no command moved since the
/// last check still resolves, and every file stays whole (the content check).
extension Torture {
    /// The library path of a command's `uri` argument, if it has one in the library.
    func targetRel(_ op: Op) -> String? {
        guard let u = op.args["uri"]?.stringValue, let p = try? FileURI.path(u) else { return nil }
        let path = String(decoding: p, as: UTF8.self)
        guard path.hasPrefix(lib + "/") else { return nil }
        return String(path.dropFirst(lib.count + 1))
    }

    /// Before a command is sent: contents it may take into a Trash, or
    /// moves while they are in one, are out of view for links from then on,
    /// even when a later command in the same cycle brings them back (a
    /// restore goes to the recorded origin, where a folder renamed meanwhile
    /// is no longer), since nothing updates links into the Trash.
    func noteTrashTouch(_ op: Op) {
        guard let rel = targetRel(op) else { return }
        let parts = rel.split(separator: "/")
        let inTrash = parts.count > 1 && parts[1] == "Trash"
        guard op.name.hasPrefix("delete") || op.name == "restore" || inTrash else { return }
        for c in contentsUnder(rel) { if let id = Self.contentID(c) { linksOutOfView.insert(id) } }
    }

    /// Before a command is sent, with two servers: the contents it may move.
    func noteMovedByTwo(_ op: Op) {
        guard opts.servers == 2, op.name == "rename" || op.name.hasPrefix("moveTo"), let rel = targetRel(op) else {
            return
        }
        for c in contentsUnder(rel) { if let id = Self.contentID(c) { movedSinceCheck.insert(id) } }
    }

    /// After a restart, with two servers: every link whose ends no command
    /// moved since the last check (nor an undo, nor anything seen out of
    /// view) resolves if it did then. A link broken by a move is the
    /// harness's from then on, as a kill's are with one server.
    func checkLinksOfTwo(phase: String) {
        let now = linkStates()
        noteLinksOutOfView(now.inView)
        if let before = linksAtCheck {
            for id in Set(before.inView.keys).union(now.inView.keys)
            where before.inView[id]?.sorted() != now.inView[id]?.sorted() {
                movedSinceCheck.insert(id)
            }
        }
        for (key, s) in now.links where !s.resolves {
            if linksOutOfView.contains(key.source) || linksOutOfView.contains(key.target) { continue }
            if linksLeftDangling.contains(key) { continue }
            if movedSinceCheck.contains(key.source) || movedSinceCheck.contains(key.target) {
                linksLeftDangling.insert(key)
                continue
            }
            violation(
                "\(phase): the link from #\(key.source) to #\(key.target) (\(s.paths.sorted())) does not resolve, and neither of its ends moved since the last check"
            )
        }
        movedSinceCheck = []
        linksAtCheck = now
    }
}
